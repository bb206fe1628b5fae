// SPDX-License-Identifier: GPL-2.0
/*
 * fakekernel.so: test_cmds.sh preloads it into sbdctl so that plain
 * directories under SBDCTL_CONFIGFS and SBDCTL_SYSFS answer as sbd's
 * configfs would, by the contract sbdctl is written against:
 *
 *   mkdir ITEM       makes the item's attribute files with their defaults
 *   write ATTR       checks the value as the driver does (EINVAL, EBUSY
 *                    while powered), then stores it
 *   power=1 / 0      makes / removes SYSFS/block/sbdN and sets "device"
 *   size, read_only  while powered also change the disk's sysfs files
 *   queue_mode       "bio" or "mq" (EINVAL else, EBUSY while powered);
 *                    hw_queues, queue_depth and poll_queues are EINVAL on
 *                    a bio disk; power=1 shows it in
 *                    SYSFS/block/sbdN/sbd/queue_mode.  An item without it
 *                    (an older module) is mq only.
 *   poll_queues      0 to 256 (default 0); power=1 shows the disk's in
 *                    SYSFS/block/sbdN/sbd/poll_queues: the item's on an mq
 *                    disk, 0 on a bio one.  An item without it (an older
 *                    module) shows none.
 *   rmdir ITEM       powers off and removes the item and its files
 *   the test knobs   cache (EBUSY while powered), ignore_flush,
 *                    power_cut_keep, power_cut_versions, seed, latency_us,
 *                    latency_jitter_us, bandwidth_mbps, log_limit,
 *                    log_full_fail: decimal, in the driver's ranges; uuid
 *                    (EBUSY while powered, shown in sysfs) only when
 *                    FAKE_FEATURES lists it, so that list shows none else
 *   errors           one rule per write, "op=OPS sector=A-B next=N|every=N|
 *                    prob=P error=KIND" (any part), shown as the driver
 *                    does ("0 op=write sector=0-7 next=1 error=ioerr
 *                    hits=0"), at most 16 (ENOSPC); "clear"; else EINVAL
 *   power_cut        0 or 1; 1 on a powered disk that is not cut loses
 *                    volatile_blocks * (100 - power_cut_keep) / 100 of
 *                    SYSFS/block/sbdN/sbd/volatile_blocks (which a test
 *                    writes, as I/O would): lost_blocks, volatile_blocks 0,
 *                    power_cuts + 1.  power=0 ends a cut, as the driver's
 *                    power off does
 *   a refused write  leaves the attribute as it was: O_TRUNC is dropped
 *                    when an item's attribute is opened
 *
 * It is a model of the kernel side, not the kernel: what it shows is how
 * sbdctl drives that contract (order of writes, undo, messages).  Knobs:
 *   FAKE_FEATURES="a,b"      the item's features (and attribute files)
 *   FAKE_QUEUE_MODE=MODE     the module's default queue_mode (bio)
 *   FAKE_NO_FEATURES_FILE=1  items without a "features" file
 *   FAKE_FAIL="KEY:ERRNO"    fail KEY (mkdir, rmdir, or ATTR=VALUE)
 *   FAKE_NODEV=1             power=1 succeeds but makes no device
 *   FAKE_LOG=FILE            appends "ITEM KEY" for each of those calls
 *   FAKE_RAISE=KEY           raises SIGINT in the call KEY (a ^C)
 *
 * Under SBDCTL_NVMET, nvmet's tree (sbdctl export):
 *   mkdir in hosts, subsystems, ports or a subsystem's namespaces makes
 *                    the item's attribute files and groups, as nvmet does
 *                    (key "mkdir-hosts", "mkdir-subsystems"...)
 *   symlink          in a port's subsystems or a subsystem's allowed_hosts
 *                    ("link-ports", "link-allowed_hosts"); ENOENT when the
 *                    target is not an item
 *   rmdir            refused as configfs refuses it: ENOTEMPTY while one of
 *                    its groups holds an item or a link, EBUSY while a link
 *                    points at it ("rmdir-KIND")
 *   write            "ATTR=VALUE" keys, as above
 *   FAKE_NVMET_AUTH=1 hosts have dhchap_key and dhchap_hash (6.7+)
 */
#define _GNU_SOURCE
/* open and open64 are both defined here: neither may be the other's alias */
#undef _FILE_OFFSET_BITS
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Test code under a short temporary directory: paths are never cut. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The uuid of every item that has one. */
#define FAKE_UUID	"5f0c7c1e-8c43-4f5e-9a0a-2b1f3c4d5e6f"

/*
 * An item's attributes and their defaults (NULL: an empty file); the last,
 * uuid, is made only when FAKE_FEATURES lists it.
 */
static const struct {
	const char *name, *def;
} attrs[] = {
	{ "size", "1073741824" },
	{ "logical_block_size", "512" },
	{ "physical_block_size", "4096" },
	{ "queue_mode", "bio" },
	{ "hw_queues", "2" },
	{ "queue_depth", "128" },
	{ "poll_queues", "0" },
	{ "partitions", "15" },
	{ "discard", "1" },
	{ "read_only", "0" },
	{ "power", "0" },
	{ "device", "" },
	{ "cache", "0" },
	{ "ignore_flush", "0" },
	{ "power_cut", "0" },
	{ "power_cut_keep", "0" },
	{ "power_cut_versions", "0" },
	{ "seed", "0" },
	{ "errors", NULL },
	{ "latency_us", "0" },
	{ "latency_jitter_us", "0" },
	{ "bandwidth_mbps", "0" },
	{ "log_limit", "0" },
	{ "log_full_fail", "0" },
	{ "snapshot", "0" },
	{ "restore", NULL },
	{ "mark", NULL },
	{ "crash_image", "" },
	{ "crash_mark", "" },
	{ "log", "log none" },
	{ "uuid", FAKE_UUID },
};

/* The test knobs that take a number: their ranges, whether fixed while on. */
static const struct {
	const char *name;
	unsigned long long max;
	bool busy;
} knobs[] = {
	{ "cache", 1, true },
	{ "ignore_flush", 1, false },
	{ "power_cut_keep", 100, false },
	{ "power_cut_versions", 1, false },
	{ "seed", ~0ULL, false },
	{ "latency_us", 10000000, false },
	{ "latency_jitter_us", 10000000, false },
	{ "bandwidth_mbps", 1000000, false },
	{ "log_limit", ~0ULL >> 1, false },
	{ "log_full_fail", 1, false },
};

/* Whether the comma-separated list has name. */
static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	for (;;) {
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return true;
		p = strchr(p, ',');
		if (!p)
			return false;
		p++;
	}
}

/* The canonical configfs root, or NULL when there is none. */
static const char *cfs_root(void)
{
	static char root[PATH_MAX];
	const char *env = getenv("SBDCTL_CONFIGFS");

	return env && realpath(env, root) ? root : NULL;
}

static void put(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fprintf(f, "%s\n", val);
		fclose(f);
	}
}

static void put_u64(const char *path, unsigned long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", v);
	put(path, buf);
}

static unsigned long long get(const char *path)
{
	unsigned long long v = 0;
	FILE *f = fopen(path, "r");

	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/* The first line of attribute attr of item dir; "" if it has none. */
static void line_of(const char *dir, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	buf[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(buf, len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* The "device" of item dir: "sbdN" or "" when powered off. */
static void device_of(const char *dir, char *dev, size_t len)
{
	line_of(dir, "device", dev, len);
}

/* The queue_mode of item dir: "bio", "mq", or "" (an older module). */
static void mode_of(const char *dir, char *mode, size_t len)
{
	line_of(dir, "queue_mode", mode, len);
}

/* Whether item dir has attribute attr (the module has it). */
static bool has_attr(const char *dir, const char *attr)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	return !stat(path, &st);
}

/* Whether FAKE_FAIL names key; then errno is set to its error. */
static bool fake_fail(const char *key)
{
	const char *f = getenv("FAKE_FAIL");
	size_t n = strlen(key);

	if (!f || strncmp(f, key, n) || f[n] != ':')
		return false;
	errno = atoi(f + n + 1);
	return true;
}

/*
 * One call the driver sees, key on the item dir: logged, maybe
 * interrupted; returns whether it is to fail (errno set).
 */
static bool event(const char *dir, const char *key)
{
	const char *log = getenv("FAKE_LOG"), *sig = getenv("FAKE_RAISE");
	FILE *f;

	if (log) {
		f = fopen(log, "a");
		if (f) {
			fprintf(f, "%s %s\n", strrchr(dir, '/') + 1, key);
			fclose(f);
		}
	}
	if (sig && !strcmp(sig, key))
		raise(SIGINT);
	return fake_fail(key);
}

/* If path is an item of the configfs root: its canonical path in dir. */
static bool is_item(const char *path, char *dir)
{
	const char *root = cfs_root();
	char parent[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (!root || !slash || slash == path ||
	    (size_t)(slash - path) >= sizeof(parent))
		return false;
	memcpy(parent, path, slash - path);
	parent[slash - path] = '\0';
	if (!realpath(parent, real) || strcmp(real, root))
		return false;
	snprintf(dir, PATH_MAX, "%s%s", real, slash);
	return true;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void power_off(const char *dir)
{
	char dev[64], path[PATH_MAX];
	const char *sys = getenv("SBDCTL_SYSFS");

	device_of(dir, dev, sizeof(dev));
	if (dev[0] && sys) {
		snprintf(path, sizeof(path), "%s/block/%s", sys, dev);
		nftw(path, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	}
	snprintf(path, sizeof(path), "%s/device", dir);
	put(path, "");
	/* an orderly power off ends a power cut */
	if (has_attr(dir, "power_cut")) {
		snprintf(path, sizeof(path), "%s/power_cut", dir);
		put(path, "0");
	}
}

static void power_on(const char *dir)
{
	static const char *const counters[] = {
		"mem_bytes", "nr_pages", "reads", "writes", "flushes",
		"discards", "write_zeroes", "fua_writes", "errors_injected",
		"polled", "snapshot_pages", "restore_pages", "volatile_blocks",
		"power_cuts", "lost_blocks",
	};
	const char *sys = getenv("SBDCTL_SYSFS");
	char path[PATH_MAX], disk[PATH_MAX], item[PATH_MAX], mode[16];
	struct stat st;
	size_t i;
	int n;

	if (!sys || getenv("FAKE_NODEV"))
		return;
	for (n = 0;; n++) {
		snprintf(disk, sizeof(disk), "%s/block/sbd%d", sys, n);
		if (stat(disk, &st))
			break;
	}
	snprintf(path, sizeof(path), "%s/queue", disk);
	mkdir(disk, 0755);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sbd", disk);
	mkdir(path, 0755);

	snprintf(item, sizeof(item), "%s/size", dir);
	snprintf(path, sizeof(path), "%s/size", disk);
	put_u64(path, get(item) / 512);
	snprintf(item, sizeof(item), "%s/read_only", dir);
	snprintf(path, sizeof(path), "%s/ro", disk);
	put_u64(path, get(item));
	snprintf(item, sizeof(item), "%s/logical_block_size", dir);
	snprintf(path, sizeof(path), "%s/queue/logical_block_size", disk);
	put_u64(path, get(item));
	snprintf(item, sizeof(item), "%s/physical_block_size", dir);
	snprintf(path, sizeof(path), "%s/queue/physical_block_size", disk);
	put_u64(path, get(item));
	for (i = 0; i < ARRAY_SIZE(counters); i++) {
		snprintf(path, sizeof(path), "%s/sbd/%s", disk, counters[i]);
		put(path, "0");
	}
	snprintf(path, sizeof(path), "%s/sbd/name", disk);
	put(path, strrchr(dir, '/') + 1);
	mode_of(dir, mode, sizeof(mode));
	if (mode[0]) {
		snprintf(path, sizeof(path), "%s/sbd/queue_mode", disk);
		put(path, mode);
	}
	/* the poll queues the disk has: a bio disk has none */
	if (has_attr(dir, "poll_queues")) {
		snprintf(item, sizeof(item), "%s/poll_queues", dir);
		snprintf(path, sizeof(path), "%s/sbd/poll_queues", disk);
		put_u64(path, strcmp(mode, "bio") ? get(item) : 0);
	}
	if (has_attr(dir, "uuid")) {
		snprintf(path, sizeof(path), "%s/sbd/uuid", disk);
		line_of(dir, "uuid", item, sizeof(item));
		put(path, item);
	}
	snprintf(path, sizeof(path), "%s/device", dir);
	snprintf(item, sizeof(item), "sbd%d", n);
	put(path, item);
}

static bool pow2(unsigned long long v)
{
	return v && !(v & (v - 1));
}

/* ---- error rules, as sbd_fault.c parses and shows them ---------------- */

static const char *const rule_ops[] = {
	"read", "write", "flush", "discard", "write_zeroes",
};
static const char *const rule_errors[] = {
	"ioerr", "medium", "nospc", "timeout", "protection",
};

#define MAX_RULES	16

/* A decimal number, all of s: 0 or -EINVAL. */
static int number(const char *s, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || end == s || !isdigit((unsigned char)s[0]) || *end)
		return -EINVAL;
	return 0;
}

/* The rule spec as the driver shows it, into line; 0 or -EINVAL. */
static int parse_rule(char *spec, char *line, size_t len)
{
	unsigned long long first = 0, last = 0, arg = 0;
	char ops[128] = "", trigger[32] = "always", *tok, *val, *save = NULL;
	const char *err = "ioerr";
	unsigned int mask = 0, i;
	bool ranged = false;
	int off;

	for (tok = strtok_r(spec, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		val = strchr(tok, '=');
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(tok, "op")) {
			char *op, *s2 = NULL;

			mask = 0;
			for (op = strtok_r(val, ",", &s2); op;
			     op = strtok_r(NULL, ",", &s2)) {
				if (!strcmp(op, "any")) {
					mask |= (1U << ARRAY_SIZE(rule_ops)) - 1;
					continue;
				}
				for (i = 0; i < ARRAY_SIZE(rule_ops); i++)
					if (!strcmp(op, rule_ops[i]))
						break;
				if (i == ARRAY_SIZE(rule_ops))
					return -EINVAL;
				mask |= 1U << i;
			}
			if (!mask)
				return -EINVAL;
		} else if (!strcmp(tok, "sector")) {
			char *dash = strchr(val, '-');

			if (!dash)
				return -EINVAL;
			*dash = '\0';
			if (number(val, &first) || number(dash + 1, &last) ||
			    first > last)
				return -EINVAL;
			ranged = true;
		} else if (!strcmp(tok, "error")) {
			for (i = 0; i < ARRAY_SIZE(rule_errors); i++)
				if (!strcmp(val, rule_errors[i]))
					break;
			if (i == ARRAY_SIZE(rule_errors))
				return -EINVAL;
			err = rule_errors[i];
		} else if (!strcmp(tok, "next") || !strcmp(tok, "every") ||
			   !strcmp(tok, "prob")) {
			if (strcmp(trigger, "always") || number(val, &arg) ||
			    (!strcmp(tok, "prob") && arg > 100) ||
			    (!strcmp(tok, "every") && !arg))
				return -EINVAL;
			snprintf(trigger, sizeof(trigger), "%s=%llu", tok, arg);
		} else {
			return -EINVAL;
		}
	}
	if (!mask || mask == (1U << ARRAY_SIZE(rule_ops)) - 1) {
		strcpy(ops, "any");
	} else {
		for (i = 0, off = 0; i < ARRAY_SIZE(rule_ops); i++)
			if (mask & (1U << i))
				off += snprintf(ops + off, sizeof(ops) - off,
						"%s%s", off ? "," : "",
						rule_ops[i]);
	}
	if (ranged)
		snprintf(line, len, "op=%s sector=%llu-%llu %s error=%s hits=0",
			 ops, first, last, trigger, err);
	else
		snprintf(line, len, "op=%s %s error=%s hits=0", ops, trigger,
			 err);
	return 0;
}

/* A write of errors: a rule added to the file, or "clear"; 0 or -errno. */
static int store_errors(const char *dir, const char *val)
{
	char path[PATH_MAX], spec[512], line[600], buf[600];
	size_t n = strlen(val);
	int rules = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/errors", dir);
	while (n && isspace((unsigned char)val[n - 1]))
		n--;
	while (n && isspace((unsigned char)*val)) {
		val++;
		n--;
	}
	snprintf(spec, sizeof(spec), "%.*s", (int)n, val);
	if (!strcmp(spec, "clear")) {
		f = fopen(path, "w");
		if (f)
			fclose(f);
		return 0;
	}
	if (parse_rule(spec, line, sizeof(line)))
		return -EINVAL;
	f = fopen(path, "r");
	if (f) {
		while (fgets(buf, sizeof(buf), f))
			rules++;
		fclose(f);
	}
	if (rules >= MAX_RULES)
		return -ENOSPC;
	f = fopen(path, "a");
	if (!f)
		return -EIO;
	fprintf(f, "%d %s\n", rules, line);
	fclose(f);
	return 0;
}

/* power_cut=v on item dir, powered as sbdN dev (or ""). */
static void power_cut(const char *dir, const char *dev, unsigned long long v)
{
	char path[PATH_MAX], sys[PATH_MAX];
	unsigned long long vol, keep;

	snprintf(path, sizeof(path), "%s/power_cut", dir);
	if (!v || get(path) || !dev[0] || !getenv("SBDCTL_SYSFS"))
		return;
	snprintf(sys, sizeof(sys), "%s/block/%s/sbd", getenv("SBDCTL_SYSFS"),
		 dev);
	snprintf(path, sizeof(path), "%s/power_cut_keep", dir);
	keep = get(path);
	snprintf(path, sizeof(path), "%s/volatile_blocks", sys);
	vol = get(path);
	put(path, "0");
	snprintf(path, sizeof(path), "%s/lost_blocks", sys);
	put_u64(path, vol - vol * keep / 100);
	snprintf(path, sizeof(path), "%s/power_cuts", sys);
	put_u64(path, get(path) + 1);
}

/* The driver's checks of attr=val in item dir: 0 or -errno. */
static int store(const char *dir, const char *attr, const char *val)
{
	static const char *const busy[] = {
		"logical_block_size", "physical_block_size", "hw_queues",
		"queue_depth", "poll_queues", "partitions", "discard",
	};
	char path[PATH_MAX], dev[64], mode[16], *end;
	unsigned long long v, lbs;
	size_t i;

	if (!strcmp(attr, "device") || !strcmp(attr, "features"))
		return -EACCES;
	device_of(dir, dev, sizeof(dev));
	if (!strcmp(attr, "errors"))
		return store_errors(dir, val);
	if (!strcmp(attr, "uuid")) {
		size_t len = strcspn(val, "\n");

		for (i = 0; i < len; i++)
			if ((i == 8 || i == 13 || i == 18 || i == 23) ?
			    val[i] != '-' : !isxdigit((unsigned char)val[i]))
				return -EINVAL;
		if (len != 36)
			return -EINVAL;
		return dev[0] ? -EBUSY : 0;
	}
	if (!strcmp(attr, "queue_mode")) {
		if (strcmp(val, "bio") && strcmp(val, "bio\n") &&
		    strcmp(val, "mq") && strcmp(val, "mq\n"))
			return -EINVAL;
		return dev[0] ? -EBUSY : 0;
	}
	errno = 0;
	v = strtoull(val, &end, 10);
	if (errno || end == val || val[0] < '0' || val[0] > '9' ||
	    (*end && strcmp(end, "\n")))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(busy); i++)
		if (dev[0] && !strcmp(attr, busy[i]))
			return -EBUSY;
	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		if (strcmp(attr, knobs[i].name))
			continue;
		if (v > knobs[i].max)
			return -EINVAL;
		return knobs[i].busy && dev[0] ? -EBUSY : 0;
	}
	if (!strcmp(attr, "power_cut")) {
		if (v > 1)
			return -EINVAL;
		power_cut(dir, dev, v);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/logical_block_size", dir);
	lbs = get(path);
	if (!lbs)		/* no such attribute: the default */
		lbs = 512;

	if (!strcmp(attr, "logical_block_size"))
		return pow2(v) && v >= 512 && v <= 4096 ? 0 : -EINVAL;
	if (!strcmp(attr, "physical_block_size"))
		return pow2(v) && v >= lbs && v <= 65536 ? 0 : -EINVAL;
	mode_of(dir, mode, sizeof(mode));
	if ((!strcmp(attr, "hw_queues") || !strcmp(attr, "queue_depth") ||
	     !strcmp(attr, "poll_queues")) && !strcmp(mode, "bio"))
		return -EINVAL;
	if (!strcmp(attr, "hw_queues"))
		return v >= 1 && v <= 256 ? 0 : -EINVAL;
	if (!strcmp(attr, "queue_depth"))
		return v >= 1 && v <= 1024 ? 0 : -EINVAL;
	if (!strcmp(attr, "poll_queues"))
		return v <= 256 ? 0 : -EINVAL;
	if (!strcmp(attr, "partitions"))
		return v <= 255 ? 0 : -EINVAL;
	if (!strcmp(attr, "discard"))
		return v <= 1 ? 0 : -EINVAL;
	if (!strcmp(attr, "size")) {
		if (!v || !lbs || v % lbs)
			return -EINVAL;
		if (dev[0]) {
			snprintf(path, sizeof(path), "%s/block/%s/size",
				 getenv("SBDCTL_SYSFS"), dev);
			put_u64(path, v / 512);
		}
		return 0;
	}
	if (!strcmp(attr, "read_only")) {
		if (v > 1)
			return -EINVAL;
		if (dev[0]) {
			snprintf(path, sizeof(path), "%s/block/%s/ro",
				 getenv("SBDCTL_SYSFS"), dev);
			put_u64(path, v);
		}
		return 0;
	}
	if (!strcmp(attr, "power")) {
		if (v > 1)
			return -EINVAL;
		if (v && !dev[0])
			power_on(dir);
		else if (!v && dev[0])
			power_off(dir);
		return 0;
	}
	return -EINVAL;
}


/* ---- nvmet's tree, under SBDCTL_NVMET -------------------------------- */

static const char *nv_root(void)
{
	static char root[PATH_MAX];
	const char *env = getenv("SBDCTL_NVMET");

	return env && realpath(env, root) ? root : NULL;
}

/*
 * If path is an item of nvmet's tree: its kind ("hosts", "subsystems",
 * "ports", "namespaces"), with its canonical path in dir.
 */
static const char *nv_kind(const char *path, char *dir)
{
	static const char *const kinds[] = { "hosts", "subsystems", "ports" };
	const char *root = nv_root(), *slash = strrchr(path, '/'), *base;
	char parent[PATH_MAX], real[PATH_MAX];
	size_t i, n;

	if (!root || !slash || slash == path ||
	    (size_t)(slash - path) >= sizeof(parent))
		return NULL;
	memcpy(parent, path, slash - path);
	parent[slash - path] = '\0';
	if (!realpath(parent, real))
		return NULL;
	n = strlen(root);
	if (strncmp(real, root, n) || real[n] != '/')
		return NULL;
	snprintf(dir, PATH_MAX, "%s%s", real, slash);
	base = real + n + 1;
	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strcmp(base, kinds[i]))
			return kinds[i];
	/* subsystems/NQN/namespaces */
	if (!strncmp(base, "subsystems/", 11) &&
	    (slash = strchr(base + 11, '/')) && !strcmp(slash, "/namespaces"))
		return "namespaces";
	return NULL;
}

/* Whether directory dir holds anything (but . and ..). */
static bool nv_busy(const char *dir)
{
	struct dirent *d;
	bool busy = false;
	DIR *dd = opendir(dir);

	if (!dd)
		return false;
	while (!busy && (d = readdir(dd)))
		busy = d->d_name[0] != '.';
	closedir(dd);
	return busy;
}

/* Whether a link named name exists in GROUP of any item of kind. */
static bool nv_linked(const char *kind, const char *group, const char *name)
{
	char path[PATH_MAX];
	struct dirent *d;
	struct stat st;
	bool found = false;
	DIR *dd;

	snprintf(path, sizeof(path), "%s/%s", nv_root(), kind);
	dd = opendir(path);
	if (!dd)
		return false;
	while (!found && (d = readdir(dd))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/%s/%s/%s", nv_root(), kind,
			 d->d_name, group, name);
		found = !lstat(path, &st);
	}
	closedir(dd);
	return found;
}

static int nv_mkdir(const char *kind, const char *dir,
		    int (*real)(const char *, mode_t))
{
	char file[PATH_MAX], key[64];

	snprintf(key, sizeof(key), "mkdir-%s", kind);
	if (event(dir, key) || real(dir, 0755))
		return -1;
#define NV_PUT(name, val) \
	do { snprintf(file, sizeof(file), "%s/%s", dir, name); put(file, val); } while (0)
#define NV_DIR(name) \
	do { snprintf(file, sizeof(file), "%s/%s", dir, name); real(file, 0755); } while (0)
	if (!strcmp(kind, "hosts") && getenv("FAKE_NVMET_AUTH")) {
		NV_PUT("dhchap_key", "");
		NV_PUT("dhchap_hash", "hmac(sha256)");
	} else if (!strcmp(kind, "subsystems")) {
		NV_PUT("attr_allow_any_host", "0");
		NV_PUT("attr_serial", "0123456789abcdef");
		NV_PUT("attr_model", "Linux");
		NV_DIR("namespaces");
		NV_DIR("allowed_hosts");
	} else if (!strcmp(kind, "namespaces")) {
		NV_PUT("device_path", "");
		NV_PUT("device_uuid", "00000000-0000-0000-0000-000000000000");
		NV_PUT("device_nguid", "00000000-0000-0000-0000-000000000000");
		NV_PUT("enable", "0");
	} else if (!strcmp(kind, "ports")) {
		NV_PUT("addr_trtype", "");
		NV_PUT("addr_adrfam", "");
		NV_PUT("addr_traddr", "");
		NV_PUT("addr_trsvcid", "");
		NV_DIR("subsystems");
	}
#undef NV_PUT
#undef NV_DIR
	return 0;
}

static int nv_rmdir(const char *kind, const char *dir,
		    int (*real)(const char *))
{
	const char *name = strrchr(dir, '/') + 1;
	char path[PATH_MAX], key[64];
	struct dirent *d;
	struct stat st;
	DIR *dd;

	snprintf(key, sizeof(key), "rmdir-%s", kind);
	if (event(dir, key))
		return -1;
	snprintf(path, sizeof(path), "%s/namespaces", dir);
	if (!strcmp(kind, "subsystems") && nv_busy(path))
		return errno = ENOTEMPTY, -1;
	snprintf(path, sizeof(path), "%s/allowed_hosts", dir);
	if (!strcmp(kind, "subsystems") && nv_busy(path))
		return errno = ENOTEMPTY, -1;
	snprintf(path, sizeof(path), "%s/subsystems", dir);
	if (!strcmp(kind, "ports") && nv_busy(path))
		return errno = ENOTEMPTY, -1;
	if ((!strcmp(kind, "subsystems") && nv_linked("ports", "subsystems", name)) ||
	    (!strcmp(kind, "hosts") && nv_linked("subsystems", "allowed_hosts", name)))
		return errno = EBUSY, -1;
	dd = opendir(dir);
	if (dd) {
		while ((d = readdir(dd))) {
			if (d->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
			if (!lstat(path, &st) && S_ISDIR(st.st_mode))
				real(path);
			else
				unlink(path);
		}
		closedir(dd);
	}
	return real(dir);
}

int symlink(const char *target, const char *path)
{
	static int (*real)(const char *, const char *);
	char dir[PATH_MAX], key[64], parent[PATH_MAX], *slash;
	struct stat st;

	if (!real)
		real = dlsym(RTLD_NEXT, "symlink");
	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	if (!nv_root() || !slash)
		return real(target, path);
	*slash = '\0';		/* parent: the group the link goes in */
	slash = strrchr(parent, '/');
	if (!slash)
		return real(target, path);
	*slash = '\0';		/* parent: the item that holds the group */
	if (!nv_kind(parent, dir))
		return real(target, path);
	/* dir: the item that holds the group; name it by its kind's group */
	snprintf(key, sizeof(key), "link-%s",
		 !strcmp(slash + 1, "subsystems") ? "ports" : slash + 1);
	if (event(dir, key))
		return -1;
	if (stat(target, &st) || !S_ISDIR(st.st_mode))
		return errno = ENOENT, -1;
	return real(target, path);
}

int mkdir(const char *path, mode_t mode)
{
	static int (*real)(const char *, mode_t);
	const char *features = getenv("FAKE_FEATURES");
	const char *def_mode = getenv("FAKE_QUEUE_MODE");
	char dir[PATH_MAX], file[PATH_MAX], defaults[1024];
	const char *attr;
	size_t i;
	FILE *f;

	if (!real)
		real = dlsym(RTLD_NEXT, "mkdir");
	attr = nv_kind(path, dir);
	if (attr)
		return nv_mkdir(attr, dir, real);
	if (!is_item(path, dir))
		return real(path, mode);
	if (event(dir, "mkdir"))
		return -1;
	if (real(path, mode))
		return -1;
	if (!features) {	/* all of them, but those opted in */
		defaults[0] = '\0';
		for (i = 0; i < ARRAY_SIZE(attrs); i++)
			if (strcmp(attrs[i].name, "uuid"))
				strcat(strcat(defaults, attrs[i].name), ",");
		features = strcat(defaults, "features");
	}
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		if (!listed(features, attrs[i].name))
			continue;
		snprintf(file, sizeof(file), "%s/%s", dir, attrs[i].name);
		if (!strcmp(attrs[i].name, "queue_mode") && def_mode) {
			put(file, def_mode);
		} else if (attrs[i].def) {
			put(file, attrs[i].def);
		} else {
			f = fopen(file, "w");
			if (f)
				fclose(f);
		}
	}
	if (!getenv("FAKE_NO_FEATURES_FILE")) {
		snprintf(file, sizeof(file), "%s/features", dir);
		put(file, features);
	}
	return 0;
}

int rmdir(const char *path)
{
	static int (*real)(const char *);
	char dir[PATH_MAX], file[PATH_MAX];
	const char *kind;
	struct dirent *d;
	DIR *dd;

	if (!real)
		real = dlsym(RTLD_NEXT, "rmdir");
	kind = nv_kind(path, dir);
	if (kind)
		return nv_rmdir(kind, dir, real);
	if (!is_item(path, dir))
		return real(path);
	if (event(dir, "rmdir"))
		return -1;
	power_off(dir);
	dd = opendir(dir);
	if (dd) {
		while ((d = readdir(dd))) {
			if (d->d_name[0] == '.')
				continue;
			snprintf(file, sizeof(file), "%s/%s", dir, d->d_name);
			unlink(file);
		}
		closedir(dd);
	}
	return real(path);
}

/*
 * The driver stores nothing on a refused write: an attribute opened with
 * O_TRUNC (as `echo > ATTR` and sbdctl do) keeps its value until write()
 * replaces it.
 */
static int keep_value(const char *path, int flags)
{
	char parent[PATH_MAX], dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (!(flags & O_TRUNC) || !slash ||
	    (size_t)(slash - path) >= sizeof(parent))
		return flags;
	memcpy(parent, path, slash - path);
	parent[slash - path] = '\0';
	return is_item(parent, dir) ? flags & ~O_TRUNC : flags;
}

int open(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	mode_t mode = 0;
	va_list ap;

	if (!real)
		real = dlsym(RTLD_NEXT, "open");
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return real(path, keep_value(path, flags), mode);
}

int open64(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	mode_t mode = 0;
	va_list ap;

	if (!real)
		real = dlsym(RTLD_NEXT, "open64");
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return real(path, keep_value(path, flags), mode);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);
	char link[64], path[PATH_MAX], dir[PATH_MAX], key[PATH_MAX];
	char val[512], *slash;
	const char *attr;
	ssize_t len;
	int err;

	if (!real)
		real = dlsym(RTLD_NEXT, "write");
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, path, sizeof(path) - 1);
	if (len < 0)
		return real(fd, buf, n);
	path[len] = '\0';
	slash = strrchr(path, '/');
	if (slash) {		/* nvmet: values of any length */
		const char *nl = memchr(buf, '\n', n);

		*slash = '\0';
		if (nv_kind(path, dir)) {
			snprintf(key, sizeof(key), "%s=%.*s", slash + 1,
				 (int)(nl ? nl - (const char *)buf : (long)n),
				 (const char *)buf);
			if (event(dir, key))
				return -1;
			return real(fd, buf, n);
		}
		*slash = '/';
	}
	if (!slash || n >= sizeof(val))
		return real(fd, buf, n);
	*slash = '\0';		/* path: the item, attr: the file in it */
	attr = slash + 1;
	if (!is_item(path, dir))
		return real(fd, buf, n);
	memcpy(val, buf, n);
	val[n] = '\0';
	snprintf(key, sizeof(key), "%s=%.*s", attr, (int)strcspn(val, "\n"),
		 val);
	if (event(dir, key))
		return -1;
	err = store(dir, attr, val);
	if (err) {
		errno = -err;
		return -1;
	}
	if (!strcmp(attr, "errors"))	/* store_errors() wrote the list */
		return n;
	if (ftruncate(fd, 0) || pwrite(fd, buf, n, 0) != (ssize_t)n)
		return -1;
	return n;
}
