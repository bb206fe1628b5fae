// SPDX-License-Identifier: GPL-2.0
/*
 * sbdctl apply FILE: the disks FILE describes (sbd.conf(5)) exist, as
 * described.  A missing disk is created and powered on; an existing one
 * gets the attributes that differ, all of them or none; a disk the file
 * does not name is never touched, and no disk is ever removed.  The whole
 * file is read and checked before anything changes, so a malformed file
 * changes nothing.  Running it twice changes nothing the second time.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sbdctl.h"

#define LINE_MAX_LEN	1024
#define FEATURES_MAX	65536

static const char usage_apply[] =
"Usage: sbdctl apply [--dry-run] [--allow-shrink] FILE\n"
"\n"
"Makes the disks FILE describes exist as described (the format is in\n"
"sbd.conf(5); FILE - is stdin).  A disk that does not exist is created and\n"
"powered on; one that exists gets the attributes that differ, all or\n"
"none; others are left alone and none is removed.  One line a disk says\n"
"what was done.  A malformed FILE changes nothing.\n"
"\n"
"  -n, --dry-run       say what would be done, change nothing\n"
"      --allow-shrink  let a smaller size shrink a disk (what lies beyond\n"
"                      the new size is lost); refused without it\n"
"  -h, --help          show this help\n"
"Exit status: 0 done, 1 a disk was refused (it is left as it was; the\n"
"others are applied), 2 usage or a malformed FILE, 3 no module or\n"
"configfs.\n";

struct setting {
	char attr[ATTR_NAME_MAX + 1];
	char val[WRITE_VALUE_MAX + 1];
	int line;
};

struct disk_conf {
	char name[SBDCTL_NAME_MAX + 1];
	int line;
	struct setting *s;
	size_t n;
};

struct conf {
	const char *file;
	struct disk_conf *d;
	size_t n;
};

/* Attributes whose value may be a SIZE (with a unit), written in bytes. */
static bool is_size_attr(const char *attr)
{
	return !strcmp(attr, "size") || !strcmp(attr, "logical_block_size") ||
	       !strcmp(attr, "physical_block_size") ||
	       !strcmp(attr, "log_limit");
}

static char *trim(char *s)
{
	char *end = s + strlen(s);

	while (*s == ' ' || *s == '\t')
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' ||
			   end[-1] == '\n' || end[-1] == '\r'))
		end--;
	*end = '\0';
	return s;
}

static int __attribute__((format(printf, 3, 4)))
conf_error(const struct conf *c, int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return errorf(SBDCTL_EXIT_USAGE, "%s:%d: %s", c->file, line, msg);
}

static int add_setting(struct conf *c, struct disk_conf *d, char *key,
		       char *val, int line)
{
	const char *use;
	struct setting *s;
	uint64_t v;
	size_t i;
	bool ro;

	if (!valid_attr_name(key, strlen(key)))
		return conf_error(c, line, "invalid attribute name '%s': use a-z 0-9 _ (the names of sbd(4))",
				  key);
	use = own_verb(key, &ro);
	if (use)
		return conf_error(c, line, "%s cannot be set here: %s", key,
				  ro ? "it is read-only" :
				  "it has a command of its own");
	for (i = 0; i < d->n; i++)
		if (!strcmp(d->s[i].attr, key))
			return conf_error(c, line, "%s given twice for %s (first on line %d)",
					  key, d->name, d->s[i].line);
	if (!*val)
		return conf_error(c, line, "%s has no value", key);
	if (strlen(val) > WRITE_VALUE_MAX)
		return conf_error(c, line, "the value of %s is longer than %d characters",
				  key, WRITE_VALUE_MAX);
	d->s = xrealloc(d->s, (d->n + 1) * sizeof(*d->s));
	s = &d->s[d->n++];
	strcpy(s->attr, key);
	s->line = line;
	if (is_size_attr(key)) {
		if (parse_size(val, &v))
			return conf_error(c, line, "invalid size '%s' for %s",
					  val, key);
		snprintf(s->val, sizeof(s->val), "%llu", (unsigned long long)v);
	} else {
		strcpy(s->val, val);
	}
	return SBDCTL_EXIT_OK;
}

/* Reads and checks the whole file: 0, or 2 after "FILE:LINE: reason". */
static int read_conf(FILE *f, struct conf *c)
{
	char buf[LINE_MAX_LEN + 2], *p, *eq, *name;
	struct disk_conf *d = NULL;
	int line = 0, ret;
	size_t i, k;

	while (fgets(buf, sizeof(buf), f)) {
		line++;
		if (!strchr(buf, '\n') && !feof(f))
			return conf_error(c, line, "line longer than %d characters",
					  LINE_MAX_LEN);
		p = trim(buf);
		if (!*p || *p == '#' || *p == ';')
			continue;
		if (*p == '[') {
			name = p + 1;
			p = strchr(name, ']');
			if (!p || p[1])
				return conf_error(c, line, "invalid section '%s': use [NAME]",
						  name - 1);
			*p = '\0';
			name = trim(name);
			if (!valid_disk_name(name))
				return conf_error(c, line, "invalid disk name '%s': use 1 to %d of A-Z a-z 0-9 . _ -, not starting with '.', not sbdN",
						  name, SBDCTL_NAME_MAX);
			for (i = 0; i < c->n; i++)
				if (!strcmp(c->d[i].name, name))
					return conf_error(c, line, "disk %s described twice (first on line %d)",
							  name, c->d[i].line);
			c->d = xrealloc(c->d, (c->n + 1) * sizeof(*c->d));
			d = &c->d[c->n++];
			memset(d, 0, sizeof(*d));
			strcpy(d->name, name);
			d->line = line;
			continue;
		}
		eq = strchr(p, '=');
		if (!eq)
			return conf_error(c, line, "invalid line '%s': use ATTR = VALUE or [NAME]",
					  p);
		if (!d)
			return conf_error(c, line, "'%s' before any [NAME] section",
					  p);
		*eq = '\0';
		ret = add_setting(c, d, trim(p), trim(eq + 1), line);
		if (ret)
			return ret;
	}
	if (ferror(f))
		return errorf(SBDCTL_EXIT_USAGE, "%s: %s", c->file,
			      strerror(errno));
	for (i = 0; i < c->n; i++) {
		d = &c->d[i];
		for (k = 0; k < d->n && strcmp(d->s[k].attr, "size"); k++)
			;
		if (k == d->n)
			return conf_error(c, d->line, "disk %s has no size",
					  d->name);
	}
	return SBDCTL_EXIT_OK;
}

/*
 * The attributes the loaded module has, from an item's "features": an
 * existing item's, or one made for the question and removed at once.
 */
static int module_features(char *buf, size_t len)
{
	char probe[SBDCTL_NAME_MAX + 1], path[PATH_MAX];
	struct dirent *e;
	int err, ret;
	DIR *dir;

	dir = opendir(cfs_root);
	while (dir && (e = readdir(dir))) {
		if (e->d_name[0] == '.' || strlen(e->d_name) > SBDCTL_NAME_MAX)
			continue;
		if (!read_attr(e->d_name, "features", buf, len)) {
			closedir(dir);
			return SBDCTL_EXIT_OK;
		}
	}
	if (dir)
		closedir(dir);
	snprintf(probe, sizeof(probe), "sbdctl-apply-%ld", (long)getpid());
	ret = make_item(probe, true);
	if (ret)
		return ret;
	err = read_attr(probe, "features", buf, len);
	item_path(path, probe, NULL);
	rmdir(path);
	if (err)
		return errorf(SBDCTL_EXIT_FAIL,
			      "cannot read the features of the sbd module: %s",
			      strerror(-err));
	return SBDCTL_EXIT_OK;
}

/* Values equal as the kernel reads them: numbers as numbers. */
static bool same_value(const char *have, const char *want)
{
	uint64_t a, b;

	if (!parse_attr_u64(have, &a) && !parse_attr_u64(want, &b))
		return a == b;
	return !strcmp(have, want);
}

/* A new disk: made, set in create's order, powered; or undone. */
static int create_disk(struct disk_conf *d, bool dry_run)
{
	char name[SBDCTL_NAME_MAX + 1];
	int rank, err, ret = SBDCTL_EXIT_OK;
	bool powered = false;
	size_t i;

	if (dry_run) {
		printf("%s: would be created\n", d->name);
		return SBDCTL_EXIT_OK;
	}
	strcpy(name, d->name);
	ret = make_item(name, true);
	if (ret)
		return ret;
	/* what create sets first comes first: the size needs the block size */
	for (rank = 0; rank <= NR_CREATE_ORDER && !ret; rank++) {
		for (i = 0; i < d->n && !ret; i++) {
			if (create_order(d->s[i].attr) != rank)
				continue;
			err = write_attr(name, d->s[i].attr, d->s[i].val);
			if (err)
				ret = errorf(SBDCTL_EXIT_FAIL, "%s: line %d: %s=%s: %s",
					     name, d->s[i].line, d->s[i].attr,
					     d->s[i].val, strerror(-err));
		}
	}
	if (!ret) {
		ret = set_attr(name, "power", "1");
		powered = !ret;
	}
	if (!ret && item_index(name) < 0)
		ret = errorf(SBDCTL_EXIT_FAIL, "power=1 gave %s no device",
			     name);
	if (ret) {
		undo_create(name, powered);
		return ret;
	}
	printf("%s: created %s/sbd%d\n", d->name, dev_dir, item_index(name));
	return SBDCTL_EXIT_OK;
}

/* "NAME: unchanged", or "NAME: set A=V B=W, powered on" */
static void print_changes(const struct disk_conf *d, char **old, bool on,
			  const char *set, const char *power)
{
	bool first = true;
	size_t i;

	printf("%s:", d->name);
	for (i = 0; i < d->n; i++) {
		if (!old[i])
			continue;
		if (first)
			printf(" %s", set);
		printf(" %s=%s", d->s[i].attr, d->s[i].val);
		first = false;
	}
	if (!on)
		printf("%s %s", first ? "" : ",", power);
	else if (first)
		printf(" unchanged");
}

/* An existing disk: what differs, set all or none; powered on. */
static int update_disk(struct disk_conf *d, bool dry_run, bool allow_shrink)
{
	char have[WRITE_VALUE_MAX + 1];
	char **old;
	int ret = SBDCTL_EXIT_OK, err = 0;
	size_t i, nchanged = 0, failed = d->n;
	uint64_t cur, want;
	bool on;

	old = xrealloc(NULL, d->n * sizeof(*old));
	memset(old, 0, d->n * sizeof(*old));
	for (i = 0; i < d->n; i++) {
		err = read_attr(d->name, d->s[i].attr, have, sizeof(have));
		if (err) {
			ret = errorf(SBDCTL_EXIT_FAIL, "%s: cannot read %s: %s",
				     d->name, d->s[i].attr, strerror(-err));
			goto out;
		}
		if (same_value(have, d->s[i].val))
			continue;
		if (!strcmp(d->s[i].attr, "size") && !allow_shrink &&
		    !parse_attr_u64(have, &cur) &&
		    !parse_attr_u64(d->s[i].val, &want) && want < cur) {
			ret = errorf(SBDCTL_EXIT_FAIL,
				     "%s: size %s is below the disk's %s: a shrink loses data (--allow-shrink to do it)",
				     d->name, d->s[i].val, have);
			goto out;
		}
		old[i] = strcpy(xrealloc(NULL, strlen(have) + 1), have);
		nchanged++;
	}
	on = !read_attr(d->name, "power", have, sizeof(have)) &&
	     same_value(have, "1");
	if (dry_run) {
		print_changes(d, old, on, "would set", "would power on");
		putchar('\n');
		goto out;
	}
	for (i = 0; i < d->n; i++) {
		if (!old[i])
			continue;
		err = write_attr(d->name, d->s[i].attr, d->s[i].val);
		if (err) {
			failed = i;
			break;
		}
	}
	if (!err && !on) {
		err = write_attr(d->name, "power", "1");
		if (err)
			failed = d->n;
	}
	if (err) {
		/* put back what was set, last first */
		for (i = failed == d->n ? d->n : failed; i-- > 0;)
			if (old[i] && write_attr(d->name, d->s[i].attr, old[i]))
				errorf(0, "%s: could not put %s back to %s",
				       d->name, d->s[i].attr, old[i]);
		if (failed == d->n)
			ret = errorf(SBDCTL_EXIT_FAIL, "%s: power=1: %s",
				     d->name, strerror(-err));
		else
			ret = errorf(SBDCTL_EXIT_FAIL, "%s: line %d: %s=%s: %s%s",
				     d->name, d->s[failed].line,
				     d->s[failed].attr, d->s[failed].val,
				     strerror(-err),
				     err == -EBUSY && on ?
				     " (it cannot change while the disk is powered on)" :
				     "");
		goto out;
	}
	print_changes(d, old, on, "set", "powered on");
	printf(" %s/sbd%d\n", dev_dir, item_index(d->name));
out:
	for (i = 0; i < d->n; i++)
		free(old[i]);
	free(old);
	return ret;
}

int cmd_apply(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "allow-shrink", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	bool dry_run = false, allow_shrink = false;
	char *features = NULL, path[PATH_MAX];
	struct conf c = { 0 };
	int opt, ret, r;
	sigset_t old;
	size_t i, k;
	FILE *f;

	while ((opt = next_opt("apply", argc, argv, ":nh", longopts)) != -1) {
		switch (opt) {
		case 'n':
			dry_run = true;
			break;
		case 'S':
			allow_shrink = true;
			break;
		case 'h':
			fputs(usage_apply, stdout);
			return SBDCTL_EXIT_OK;
		default:
			return SBDCTL_EXIT_USAGE;
		}
	}
	if (argc - optind != 1)
		return usage_error("apply", argc == optind ? "missing FILE" :
				   "unexpected argument '%s'", argv[optind + 1]);
	c.file = argv[optind];
	f = strcmp(c.file, "-") ? fopen(c.file, "r") : stdin;
	if (!f)
		return errorf(SBDCTL_EXIT_USAGE, "%s: %s", c.file,
			      strerror(errno));
	ret = read_conf(f, &c);
	if (f != stdin)
		fclose(f);
	if (ret)
		goto out;
	ret = check_module();
	if (!ret)
		ret = check_configfs();
	if (ret || !c.n)
		goto out;

	features = xrealloc(NULL, FEATURES_MAX);
	ret = module_features(features, FEATURES_MAX);
	if (ret)
		goto out;
	for (i = 0; i < c.n; i++)
		for (k = 0; k < c.d[i].n; k++)
			if (!features_has(features, c.d[i].s[k].attr)) {
				ret = errorf(SBDCTL_EXIT_USAGE,
					     "%s:%d: unknown attribute '%s': the loaded sbd module has no such one",
					     c.file, c.d[i].s[k].line,
					     c.d[i].s[k].attr);
				goto out;
			}

	/* a disk is done or undone before ^C takes effect */
	hold_signals(&old);
	for (i = 0; i < c.n; i++) {
		item_path(path, c.d[i].name, NULL);
		if (is_dir(path))
			r = update_disk(&c.d[i], dry_run, allow_shrink);
		else
			r = create_disk(&c.d[i], dry_run);
		if (r && !ret)
			ret = r;
		fflush(stdout);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
out:
	for (i = 0; i < c.n; i++)
		free(c.d[i].s);
	free(c.d);
	free(features);
	return ret;
}
