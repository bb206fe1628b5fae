// SPDX-License-Identifier: GPL-2.0
/*
 * sbdctl for every knob of a disk, as nvme-cli is for a drive's:
 *
 *   show   its configfs attributes, error rules and sysfs counters
 *   set    any attribute that has no command of its own: all or none
 *   power  on (also after a cut) or off
 *   cut    a power cut, with how many blocks it lost
 *   fail   error rules: added one per write, cleared, listed
 *
 * The option tables of show, cut and fail are in sbdctl.c, next to the
 * other commands', where scripts/check-man.sh reads them.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sbdctl.h"

/* An attribute's value, as configfs and sysfs show one: at most a page. */
#define VALUE_MAX	65536

/* The longest value set writes, and the longest error rule. */
#define WRITE_MAX	WRITE_VALUE_MAX

static const char usage_show[] =
"Usage: sbdctl show DEV [--json]\n"
"\n"
"Shows a disk's knobs and counters, one \"NAME VALUE\" a line: its device\n"
"and name, every configfs attribute the module has (but features, device\n"
"and those of crash testing), each error rule (errors) and, while it is\n"
"powered, each file of /sys/block/sbdN/sbd (sbd/NAME).  A disk of the\n"
"module parameters has only the files of sysfs.  A value that is empty\n"
"(errors: no rule) is -.\n"
"\n"
"  -J, --json  an object: device (null when off), name (null for a\n"
"              module-parameter disk), attributes (an object), errors (an\n"
"              array of the rules' lines), counters (an object); numbers\n"
"              as JSON numbers\n"
"  -h, --help  show this help\n"
"Exit status: 0 shown, 1 error, 2 usage, 3 no module or configfs, 4 no DEV.\n";

static const char usage_set[] =
"Usage: sbdctl set DEV ATTR=VALUE...\n"
"\n"
"Sets attributes of a disk made by 'sbdctl create', in the order given:\n"
"any the module has but those with a command of their own (power, cut,\n"
"fail, snapshot, restore, mark, crash-image) and the read-only ones.  VALUE\n"
"goes to the kernel as it is, which checks it ('sbdctl show' shows what\n"
"there is).  If the kernel refuses one, those already set get their old\n"
"values back, and nothing has changed (but data a shrink of size dropped).\n"
"\n"
"  -h, --help  show this help\n"
"Exit status: 0 done, 1 refused, 2 usage (an unknown attribute too),\n"
"3 no module or configfs, 4 no DEV.\n";

static const char usage_power[] =
"Usage: sbdctl power DEV on|off\n"
"\n"
"on: powers a disk made by 'sbdctl create' on (power=1) and prints its\n"
"device, /dev/sbdN; a disk whose power was cut ('sbdctl cut') gets it back\n"
"(power_cut=0) with what survived the cut.  off: an orderly power off\n"
"(power=0): the write cache is written out, the block device goes, the\n"
"data stays.\n"
"Exit status: 0 done, 1 refused, 2 usage, 3 no module or configfs, 4 no DEV.\n";

static const char usage_cut[] =
"Usage: sbdctl cut DEV [--keep PCT] [--seed N] [--versions]\n"
"\n"
"Cuts the power of a powered disk (power_cut=1): each block written since\n"
"the last flush (volatile, with the write cache: cache=1) goes back to what\n"
"it held durably, unless it is one of the PCT% kept, and every request\n"
"fails until 'sbdctl power DEV on'.  Prints how many blocks the cut lost\n"
"and how many were volatile before it.  Options not given keep the disk's\n"
"settings.\n"
"\n"
"  -k, --keep PCT  keep each volatile block with probability PCT%, 0 to 100\n"
"                  (power_cut_keep)\n"
"  -s, --seed N    seed the choice: the same writes and seed lose the same\n"
"                  blocks (seed)\n"
"      --versions  a block written more than once may come back as one of\n"
"                  its older versions (power_cut_versions=1)\n"
"  -h, --help      show this help\n"
"Exit status: 0 cut, 1 refused, 2 usage, 3 no module or configfs, 4 no DEV.\n";

static const char usage_fail[] =
"Usage: sbdctl fail DEV [--clear] [RULE...] [--list]\n"
"\n"
"Makes requests to a disk made by 'sbdctl create' fail: each RULE, one\n"
"argument, is added after the disk's rules (one write of errors each); the\n"
"first rule that fires wins.  RULE: [op=OPS] [sector=FIRST-LAST]\n"
"[next=N|every=N|prob=P] [error=KIND]; OPS: read, write, flush, discard,\n"
"write_zeroes or any, comma-separated; sectors of 512 bytes, inclusive;\n"
"KIND: ioerr (default), medium, nospc, timeout, protection.  See sbd(4).\n"
"\n"
"  -c, --clear  remove every rule first\n"
"  -l, --list   then print the rules, one a line, with their hits\n"
"  -h, --help   show this help\n"
"Exit status: 0 done, 1 refused (the message names the rule), 2 usage,\n"
"3 no module or configfs, 4 no DEV.\n";

/* ---- helpers ------------------------------------------------------- */

/* ---- show ---------------------------------------------------------- */

struct kv {
	char *name, *val;
	int rank;		/* the order counters are shown in */
};

struct kvs {
	struct kv *v;
	size_t n, cap;
};

static void kvs_add(struct kvs *l, const char *name, const char *val,
		    int rank)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 32;
		l->v = xrealloc(l->v, l->cap * sizeof(l->v[0]));
	}
	l->v[l->n].name = xrealloc(NULL, strlen(name) + 1);
	strcpy(l->v[l->n].name, name);
	l->v[l->n].val = xrealloc(NULL, strlen(val) + 1);
	strcpy(l->v[l->n].val, val);
	l->v[l->n].rank = rank;
	l->n++;
}

static void kvs_free(struct kvs *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].val);
	}
	free(l->v);
}

/*
 * Attributes show leaves out: shown otherwise (device, errors), a list of
 * the others (features), or those of crash testing, write-only or about
 * a snapshot or crash image (sbdctl log, crash-image).
 */
static const char *const show_skip[] = {
	"device", "errors", "features", "snapshot", "restore", "mark",
	"crash_image", "crash_mark", "log",
};

/* The files of /sys/block/sbdN/sbd, in sbd_sysfs.c's order. */
static const char *const counter_order[] = {
	"queue_mode", "uuid", "poll_queues", "nr_pages", "mem_bytes",
	"snapshot_pages", "restore_pages", "reads", "writes", "flushes",
	"discards", "write_zeroes", "fua_writes", "errors_injected", "polled",
	"volatile_blocks", "power_cuts", "lost_blocks",
};

static int kv_cmp(const void *a, const void *b)
{
	const struct kv *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Adds attribute name of item to l, unless it is one show leaves out or
 * cannot read (write-only).  0 or an exit code after the message.
 */
static int show_attr(const char *item, const char *name, struct kvs *l,
		     char *buf)
{
	char path[PATH_MAX];
	size_t i;
	int ret;

	if (!valid_attr_name(name, strlen(name)))
		return SBDCTL_EXIT_OK;
	for (i = 0; i < ARRAY_SIZE(show_skip); i++)
		if (!strcmp(name, show_skip[i]))
			return SBDCTL_EXIT_OK;
	item_path(path, item, name);
	ret = read_file(path, buf, VALUE_MAX);
	if (ret == -EACCES || ret == -EPERM || ret == -ENOENT ||
	    ret == -EISDIR)
		return SBDCTL_EXIT_OK;
	if (ret)
		return errorf(SBDCTL_EXIT_FAIL, "%s: %s", path, strerror(-ret));
	kvs_add(l, name, buf, 0);
	return SBDCTL_EXIT_OK;
}

/* The attributes of item, in its features' order (else by name). */
static int read_attrs(const char *item, struct kvs *l, char *buf)
{
	char path[PATH_MAX], *features, *name, *save = NULL, **names = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *d;
	DIR *dir;
	int ret = 0;

	features = xrealloc(NULL, VALUE_MAX);
	if (!read_attr(item, "features", features, VALUE_MAX)) {
		for (name = strtok_r(features, ", \n", &save); name && !ret;
		     name = strtok_r(NULL, ", \n", &save))
			ret = show_attr(item, name, l, buf);
		free(features);
		return ret;
	}
	free(features);
	/* an older module: what the item's directory has */
	item_path(path, item, NULL);
	dir = opendir(path);
	if (!dir)
		return errorf(SBDCTL_EXIT_FAIL, "%s: %s", path, strerror(errno));
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			names = xrealloc(names, cap * sizeof(*names));
		}
		names[n] = xrealloc(NULL, strlen(d->d_name) + 1);
		strcpy(names[n++], d->d_name);
	}
	closedir(dir);
	if (n)
		qsort(names, n, sizeof(*names), name_cmp);
	for (i = 0; i < n; i++) {
		if (!ret)
			ret = show_attr(item, names[i], l, buf);
		free(names[i]);
	}
	free(names);
	return ret;
}

/* The files of /sys/block/sbdN/sbd but name, in counter_order. */
static int read_counters(int index, struct kvs *l, char *buf)
{
	char dir_path[PATH_MAX], path[PATH_MAX + 256];
	struct dirent *d;
	struct stat st;
	size_t i;
	DIR *dir;
	int ret = 0, rank;

	snprintf(dir_path, sizeof(dir_path), "%s/block/sbd%d/sbd", sys_root,
		 index);
	dir = opendir(dir_path);
	if (!dir) {
		if (errno == ENOENT)	/* powered off meanwhile */
			return SBDCTL_EXIT_OK;
		return errorf(SBDCTL_EXIT_FAIL, "%s: %s", dir_path,
			      strerror(errno));
	}
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || !strcmp(d->d_name, "name"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir_path, d->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		ret = read_file(path, buf, VALUE_MAX);
		if (ret == -EACCES || ret == -EPERM || ret == -ENOENT) {
			ret = 0;
			continue;
		}
		if (ret) {
			ret = errorf(SBDCTL_EXIT_FAIL, "%s: %s", path,
				     strerror(-ret));
			break;
		}
		rank = ARRAY_SIZE(counter_order);
		for (i = 0; i < ARRAY_SIZE(counter_order); i++)
			if (!strcmp(d->d_name, counter_order[i]))
				rank = i;
		kvs_add(l, d->d_name, buf, rank);
	}
	closedir(dir);
	if (l->n)
		qsort(l->v, l->n, sizeof(l->v[0]), kv_cmp);
	return ret;
}

/* A value as JSON: a number when it is a decimal one, else a string. */
static void print_json_value(const char *val)
{
	uint64_t v;

	if (!parse_attr_u64(val, &v))
		printf("%llu", (unsigned long long)v);
	else
		print_json_string(val);
}

static void print_json_object(const struct kvs *l)
{
	size_t i;

	putchar('{');
	for (i = 0; i < l->n; i++) {
		if (i)
			fputs(", ", stdout);
		print_json_string(l->v[i].name);
		fputs(": ", stdout);
		print_json_value(l->v[i].val);
	}
	putchar('}');
}

/* One line of the text: NAME padded to width, the value ("-" if empty). */
static void print_line(int width, const char *prefix, const char *name,
		       const char *val)
{
	int n = (int)strlen(prefix) + (int)strlen(name);

	printf("%s%s%*s %s\n", prefix, name, width > n ? width - n : 0, "",
	       val[0] ? val : "-");
}

static int width_of(const struct kvs *l, int prefix, int width)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if ((int)strlen(l->v[i].name) + prefix > width)
			width = strlen(l->v[i].name) + prefix;
	return width;
}

int knobs_show(int argc, char **argv, const struct option *longopts)
{
	struct kvs attrs = { }, errs = { }, counters = { };
	char item[SBDCTL_NAME_MAX + 1], dev[ROOT_MAX + 32], *buf, *line;
	char *save = NULL;
	bool json = false, has_errors = false;
	int opt, index, width, ret, err;
	size_t i;

	while ((opt = next_opt("show", argc, argv, ":Jh", longopts)) != -1) {
		switch (opt) {
		case 'J':
			json = true;
			break;
		case 'h':
			fputs(usage_show, stdout);
			return SBDCTL_EXIT_OK;
		default:
			return SBDCTL_EXIT_USAGE;
		}
	}
	if (argc - optind != 1)
		return usage_error("show", argc == optind ? "missing DEV" :
				   "unexpected argument '%s'", argv[optind + 1]);
	ret = lookup_disk(argv[optind], item, &index);
	if (ret)
		return ret;
	buf = xrealloc(NULL, VALUE_MAX);
	if (item[0]) {
		index = item_index(item);
		ret = read_attrs(item, &attrs, buf);
		if (!ret && item_has(item, "errors")) {
			err = read_attr(item, "errors", buf, VALUE_MAX);
			if (err)
				ret = errorf(SBDCTL_EXIT_FAIL, "%s/%s/errors: %s",
					     cfs_root, item, strerror(-err));
			has_errors = !err;
			for (line = strtok_r(buf, "\n", &save); line && !err;
			     line = strtok_r(NULL, "\n", &save))
				kvs_add(&errs, "errors", line, 0);
		}
	}
	if (!ret && index >= 0)
		ret = read_counters(index, &counters, buf);
	free(buf);
	if (ret)
		goto out;

	if (index >= 0)
		snprintf(dev, sizeof(dev), "%s/sbd%d", dev_dir, index);
	if (json) {
		fputs("{\"device\": ", stdout);
		if (index >= 0)
			print_json_string(dev);
		else
			fputs("null", stdout);
		fputs(", \"name\": ", stdout);
		if (item[0])
			print_json_string(item);
		else
			fputs("null", stdout);
		fputs(", \"attributes\": ", stdout);
		print_json_object(&attrs);
		fputs(", \"errors\": [", stdout);
		for (i = 0; i < errs.n; i++) {
			if (i)
				fputs(", ", stdout);
			print_json_string(errs.v[i].val);
		}
		fputs("], \"counters\": ", stdout);
		print_json_object(&counters);
		puts("}");
		goto out;
	}
	width = width_of(&attrs, 0, strlen("device"));
	width = width_of(&counters, 4, width);
	print_line(width, "", "device", index >= 0 ? dev : "");
	print_line(width, "", "name", item);
	for (i = 0; i < attrs.n; i++)
		print_line(width, "", attrs.v[i].name, attrs.v[i].val);
	if (has_errors && !errs.n)
		print_line(width, "", "errors", "");
	for (i = 0; i < errs.n; i++)
		print_line(width, "", "errors", errs.v[i].val);
	for (i = 0; i < counters.n; i++)
		print_line(width, "sbd/", counters.v[i].name,
			   counters.v[i].val);
out:
	kvs_free(&attrs);
	kvs_free(&errs);
	kvs_free(&counters);
	return ret;
}

/* ---- set ----------------------------------------------------------- */

/* Attributes set does not write, and what does. */
static const struct {
	const char *attr, *use;
	bool ro;
} own_verbs[] = {
	{ "power", "sbdctl power DEV on|off", false },
	{ "power_cut", "sbdctl cut DEV, then sbdctl power DEV on", false },
	{ "errors", "sbdctl fail DEV RULE... (--clear, --list)", false },
	{ "snapshot", "sbdctl snapshot DEV", false },
	{ "restore", "sbdctl restore DEV", false },
	{ "mark", "sbdctl mark DEV LABEL", false },
	{ "crash_image", "sbdctl crash-image DEV --epoch E --state K", false },
	{ "crash_mark", "sbdctl show DEV", true },
	{ "device", "sbdctl show DEV", true },
	{ "features", "sbdctl show DEV", true },
	{ "log", "sbdctl log DEV", true },
};

const char *own_verb(const char *attr, bool *ro)
{
	size_t k;

	for (k = 0; k < ARRAY_SIZE(own_verbs); k++) {
		if (!strcmp(attr, own_verbs[k].attr)) {
			*ro = own_verbs[k].ro;
			return own_verbs[k].use;
		}
	}
	return NULL;
}

struct assignment {
	char attr[65];
	const char *val;
	char *old;
};

int cmd_set(int argc, char **argv)
{
	char item[SBDCTL_NAME_MAX + 1], path[PATH_MAX];
	struct assignment *a;
	sigset_t old_mask;
	int ret, i, j, n, err, failed_at = -1, undo_failed = 0;
	const char *eq, *arg;
	size_t k, len;

	ret = help_only("set", usage_set, argc, argv);
	if (ret)
		return ret == SBDCTL_HELP_SHOWN ? SBDCTL_EXIT_OK : ret;
	if (argc - optind < 2)
		return usage_error("set", argc == optind ?
				   "missing DEV and ATTR=VALUE" :
				   "missing ATTR=VALUE");
	n = argc - optind - 1;
	a = xrealloc(NULL, n * sizeof(*a));
	memset(a, 0, n * sizeof(*a));
	/* what can be told without the kernel first: usage errors are 2 */
	for (i = 0; i < n; i++) {
		arg = argv[optind + 1 + i];
		eq = strchr(arg, '=');
		if (!eq) {
			ret = usage_error("set", "invalid argument '%s': use ATTR=VALUE",
					  arg);
			goto out;
		}
		len = eq - arg;
		if (!valid_attr_name(arg, len)) {
			ret = usage_error("set", "invalid attribute name '%.*s'",
					  (int)len, arg);
			goto out;
		}
		memcpy(a[i].attr, arg, len);
		a[i].attr[len] = '\0';
		a[i].val = eq + 1;
		for (k = 0; k < ARRAY_SIZE(own_verbs); k++) {
			if (strcmp(a[i].attr, own_verbs[k].attr))
				continue;
			if (own_verbs[k].ro)
				ret = usage_error("set", "%s is read-only ('%s' shows it)",
						  a[i].attr, own_verbs[k].use);
			else
				ret = usage_error("set", "%s has a command of its own: use '%s'",
						  a[i].attr, own_verbs[k].use);
			goto out;
		}
		if (strchr(a[i].val, '\n') || strlen(a[i].val) > WRITE_MAX) {
			ret = usage_error("set", "invalid value for %s: at most %d characters, one line",
					  a[i].attr, WRITE_MAX);
			goto out;
		}
	}
	ret = resolve(argv[optind], item);
	if (ret)
		goto out;
	for (i = 0; i < n; i++) {
		if (!item_has(item, a[i].attr)) {
			ret = usage_error("set", "unknown attribute '%s': the loaded sbd module has no such one",
					  a[i].attr);
			goto out;
		}
	}
	/* the old values, all read before anything is written */
	for (i = 0; i < n; i++) {
		a[i].old = xrealloc(NULL, VALUE_MAX);
		err = read_attr(item, a[i].attr, a[i].old, VALUE_MAX);
		if (err) {
			item_path(path, item, a[i].attr);
			ret = errorf(SBDCTL_EXIT_FAIL, "cannot read %s: %s", path,
				     strerror(-err));
			goto out;
		}
	}

	hold_signals(&old_mask);
	for (i = 0; i < n; i++) {
		err = write_attr(item, a[i].attr, a[i].val);
		if (err) {
			failed_at = i;
			break;
		}
	}
	if (failed_at >= 0) {
		/* put back what was changed, last first */
		for (j = failed_at - 1; j >= 0; j--) {
			int e = write_attr(item, a[j].attr, a[j].old);

			if (!e)
				continue;
			if (!undo_failed++)
				errorf(0, "%s=%s: %s", a[failed_at].attr,
				       a[failed_at].val, strerror(-err));
			errorf(0, "could not put %s back to %s: %s",
			       a[j].attr, a[j].old, strerror(-e));
		}
		if (!undo_failed)
			errorf(0, "%s=%s: %s (nothing changed)",
			       a[failed_at].attr, a[failed_at].val,
			       strerror(-err));
		ret = SBDCTL_EXIT_FAIL;
	}
	fflush(stdout);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
out:
	for (i = 0; i < n; i++)
		free(a[i].old);
	free(a);
	return ret;
}

/* ---- power --------------------------------------------------------- */

int cmd_power(int argc, char **argv)
{
	char item[SBDCTL_NAME_MAX + 1], val[16];
	const char *state;
	bool on;
	int ret;

	ret = help_only("power", usage_power, argc, argv);
	if (ret)
		return ret == SBDCTL_HELP_SHOWN ? SBDCTL_EXIT_OK : ret;
	if (argc - optind != 2)
		return usage_error("power", argc == optind ? "missing DEV and on|off" :
				   argc - optind == 1 ? "missing on|off" :
				   "unexpected argument '%s'", argv[optind + 2]);
	state = argv[optind + 1];
	if (strcmp(state, "on") && strcmp(state, "off"))
		return usage_error("power", "invalid state '%s': use on or off",
				   state);
	on = !strcmp(state, "on");
	ret = resolve(argv[optind], item);
	if (ret)
		return ret;
	if (!on)
		return set_attr(item, "power", "0");
	/* power back after a cut; a disk cut while off comes up cut, too */
	if (item_has(item, "power_cut") && !read_attr(item, "power_cut", val, sizeof(val)) &&
	    strcmp(val, "0")) {
		ret = set_attr(item, "power_cut", "0");
		if (ret)
			return ret;
	}
	if (item_index(item) < 0) {
		ret = set_attr(item, "power", "1");
		if (ret)
			return ret;
	}
	if (item_index(item) < 0) {
		char path[PATH_MAX];

		item_path(path, item, "device");
		return errorf(SBDCTL_EXIT_FAIL, "power=1 gave no device (%s)",
			      path);
	}
	printf("%s/sbd%d\n", dev_dir, item_index(item));
	return SBDCTL_EXIT_OK;
}

/* ---- cut ----------------------------------------------------------- */

/* A counter of /sys/block/sbdN/sbd: 0 or -errno. */
static int read_counter(int index, const char *name, uint64_t *v)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/block/sbd%d/sbd/%s", sys_root, index,
		 name);
	return read_u64(path, v);
}

int knobs_cut(int argc, char **argv, const struct option *longopts)
{
	char item[SBDCTL_NAME_MAX + 1], val[32];
	const char *keep_arg = NULL, *seed_arg = NULL;
	uint64_t keep, seed, before = 0, lost = 0;
	bool versions = false, counted;
	struct {
		const char *option, *attr;
		bool given;
	} opts[] = {
		{ "--keep", "power_cut_keep", false },
		{ "--seed", "seed", false },
		{ "--versions", "power_cut_versions", false },
	};
	int opt, index, ret;
	size_t i;

	while ((opt = next_opt("cut", argc, argv, ":k:s:h", longopts)) != -1) {
		switch (opt) {
		case 'k':
			if (parse_uint(optarg, 100, &keep))
				return usage_error("cut", "invalid --keep '%s': a percentage, 0 to 100",
						   optarg);
			keep_arg = optarg;
			break;
		case 's':
			if (parse_uint(optarg, UINT64_MAX, &seed))
				return usage_error("cut", "invalid --seed '%s': 0 to 2^64-1",
						   optarg);
			seed_arg = optarg;
			break;
		case 'v':
			versions = true;
			break;
		case 'h':
			fputs(usage_cut, stdout);
			return SBDCTL_EXIT_OK;
		default:
			return SBDCTL_EXIT_USAGE;
		}
	}
	if (argc - optind != 1)
		return usage_error("cut", argc == optind ? "missing DEV" :
				   "unexpected argument '%s'", argv[optind + 1]);
	opts[0].given = keep_arg;
	opts[1].given = seed_arg;
	opts[2].given = versions;
	ret = resolve(argv[optind], item);
	if (ret)
		return ret;
	if (!item_has(item, "power_cut"))
		return errorf(SBDCTL_EXIT_FAIL,
			      "the loaded sbd module has no power cuts (no power_cut attribute)");
	for (i = 0; i < ARRAY_SIZE(opts); i++)
		if (opts[i].given && !item_has(item, opts[i].attr))
			return errorf(SBDCTL_EXIT_FAIL,
				      "%s is not supported by the loaded sbd module (no %s attribute)",
				      opts[i].option, opts[i].attr);
	index = item_index(item);
	if (index < 0)
		return errorf(SBDCTL_EXIT_FAIL,
			      "%s is powered off: there is no power to cut",
			      argv[optind]);
	if (!read_attr(item, "power_cut", val, sizeof(val)) && strcmp(val, "0"))
		return errorf(SBDCTL_EXIT_FAIL,
			      "the power of %s is cut already ('sbdctl power %s on' gives it back)",
			      argv[optind], argv[optind]);

	if (keep_arg)
		ret = set_attr(item, "power_cut_keep", keep_arg);
	if (!ret && seed_arg)
		ret = set_attr(item, "seed", seed_arg);
	if (!ret && versions)
		ret = set_attr(item, "power_cut_versions", "1");
	if (ret)
		return ret;
	/* what was volatile just before: writes may still come meanwhile */
	counted = !read_counter(index, "volatile_blocks", &before);
	ret = set_attr(item, "power_cut", "1");
	if (ret)
		return ret;
	counted = counted && !read_counter(index, "lost_blocks", &lost);
	if (counted)
		printf("%s/sbd%d: power cut: %llu of %llu volatile blocks lost\n",
		       dev_dir, index, (unsigned long long)lost,
		       (unsigned long long)before);
	else
		printf("%s/sbd%d: power cut\n", dev_dir, index);
	return SBDCTL_EXIT_OK;
}

/* ---- fail ---------------------------------------------------------- */

int knobs_fail(int argc, char **argv, const struct option *longopts)
{
	char item[SBDCTL_NAME_MAX + 1], *buf;
	bool clear = false, list = false;
	const char *rule;
	int opt, ret, err, i, n;

	while ((opt = next_opt("fail", argc, argv, ":clh", longopts)) != -1) {
		switch (opt) {
		case 'c':
			clear = true;
			break;
		case 'l':
			list = true;
			break;
		case 'h':
			fputs(usage_fail, stdout);
			return SBDCTL_EXIT_OK;
		default:
			return SBDCTL_EXIT_USAGE;
		}
	}
	if (argc == optind)
		return usage_error("fail", "missing DEV");
	n = argc - optind - 1;
	if (!n && !clear && !list)
		return usage_error("fail", "missing RULE, --clear or --list");
	for (i = 0; i < n; i++) {
		rule = argv[optind + 1 + i];
		/* "" would be a rule failing every request, "clear" no rule */
		if (!rule[strspn(rule, " \t")])
			return usage_error("fail", "empty rule");
		if (strchr(rule, '\n') || strlen(rule) > WRITE_MAX)
			return usage_error("fail", "invalid rule '%s': at most %d characters, one line",
					   rule, WRITE_MAX);
		if (!strcmp(rule, "clear"))
			return usage_error("fail", "'clear' is not a rule: use --clear");
	}
	ret = resolve(argv[optind], item);
	if (ret)
		return ret;
	if (!item_has(item, "errors"))
		return errorf(SBDCTL_EXIT_FAIL,
			      "the loaded sbd module has no error injection (no errors attribute)");
	if (clear) {
		ret = set_attr(item, "errors", "clear");
		if (ret)
			return ret;
	}
	for (i = 0; i < n; i++) {
		rule = argv[optind + 1 + i];
		err = write_attr(item, "errors", rule);
		if (!err)
			continue;
		if (i)
			return errorf(SBDCTL_EXIT_FAIL,
				      "rule '%s': %s (the rules before it were added)",
				      rule, strerror(-err));
		return errorf(SBDCTL_EXIT_FAIL, "rule '%s': %s", rule,
			      strerror(-err));
	}
	if (!list)
		return SBDCTL_EXIT_OK;
	buf = xrealloc(NULL, VALUE_MAX);
	err = read_attr(item, "errors", buf, VALUE_MAX);
	if (err)
		ret = errorf(SBDCTL_EXIT_FAIL, "%s/%s/errors: %s", cfs_root,
			     item, strerror(-err));
	else if (buf[0])
		puts(buf);
	free(buf);
	return ret;
}
