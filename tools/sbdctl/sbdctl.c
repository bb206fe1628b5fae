// SPDX-License-Identifier: GPL-2.0
/*
 * sbdctl: makes, lists, changes and removes sbd disks, as zramctl does for
 * zram.  Disks are configfs items under /sys/kernel/config/sbd/NAME: an
 * item is made with mkdir, configured by writing its attributes and
 * powered on by writing 1 to "power", after which "device" names its
 * block device.  Every sbd disk, also those the module parameters made,
 * shows in /sys/block/sbdN.  SBDCTL_CONFIGFS, SBDCTL_SYSFS and SBDCTL_DEV
 * move those three places, for the tests.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sbdctl.h"

#ifndef SBDCTL_VERSION
#define SBDCTL_VERSION "0.1"
#endif

char cfs_root[ROOT_MAX + 1];	/* the sbd configfs subsystem */
char sys_root[ROOT_MAX + 1];	/* sysfs */
char dev_dir[ROOT_MAX + 1];	/* device nodes, for printing */

static const char usage_main[] =
"Usage: sbdctl COMMAND [OPTIONS]\n"
"\n"
"Make and control sbd RAM disks through configfs.\n"
"\n"
"Commands:\n"
"  create --size SIZE [OPTIONS]  make a disk, power it on, print its device\n"
"  list [--json] [--bytes]       show every sbd disk\n"
"  resize DEV SIZE               change the size of a disk (online if powered)\n"
"  ro DEV                        make a disk read-only\n"
"  rw DEV                        make a disk writable\n"
"  remove [--force] DEV          power a disk off and free it and its data\n"
"  apply [--dry-run] FILE        make the disks FILE describes (sbd.conf(5))\n"
"\n"
"Every knob of a disk:\n"
"  show DEV [--json]             its attributes, error rules and counters\n"
"  set DEV ATTR=VALUE...         set attributes: all of them or none\n"
"  power DEV on|off              power it on (also after a cut) or off\n"
"  cut DEV [--keep PCT] [--seed N] [--versions]\n"
"                                cut its power: unflushed writes are lost\n"
"  fail DEV [--clear] [RULE...] [--list]\n"
"                                make requests fail: add, clear, list rules\n"
"\n"
"Crash testing:\n"
"  snapshot DEV [--log-limit SIZE] take a baseline (and start a write log)\n"
"  restore DEV                   bring a disk back to its snapshot\n"
"  mark DEV LABEL                put a labelled mark into the write log\n"
"  log DEV [--json]              show the write log: epochs, writes, marks\n"
"  crash-image DEV --epoch E --state K [--name NAME]\n"
"                                make a crash state a new disk, print it\n"
"  crash-test --size SIZE --run CMD --check CMD [OPTIONS]\n"
"                                run a workload once, check its crash states\n"
"\n"
"Serving disks to other machines (NVMe/TCP, the kernel's nvmet):\n"
"  export DEV (--host HOSTNQN... | --any-host) [--addr ADDR] [--port PORT]\n"
"             [--auth] [--json]  serve a disk, print the nvme commands\n"
"  unexport DEV                  stop serving it\n"
"\n"
"DEV is /dev/sbdN, sbdN or the name the disk was created with.  A SIZE is a\n"
"number of bytes with an optional unit: K M G T P or KiB MiB GiB TiB PiB\n"
"(powers of 1024), KB MB GB TB PB (powers of 1000), B (bytes).\n"
"\n"
"Options:\n"
"  -h, --help     show this help; 'sbdctl COMMAND --help' for a command\n"
"  -V, --version  show the version\n"
"\n"
"Exit status:\n"
"  0  success\n"
"  1  the operation failed: the kernel refused it, an I/O error, or the\n"
"     disk was made by the module parameters and cannot be changed\n"
"  2  usage error: unknown command or option, bad value\n"
"  3  the sbd module is not loaded, or configfs is not mounted\n"
"  4  no such sbd disk\n"
"\n"
"Environment: SBDCTL_CONFIGFS (default /sys/kernel/config/sbd),\n"
"SBDCTL_SYSFS (/sys), SBDCTL_DEV (/dev).\n";

static const char usage_create[] =
"Usage: sbdctl create --size SIZE [OPTIONS]\n"
"\n"
"Makes a disk, powers it on and prints its device, /dev/sbdN.  Options that\n"
"are not given keep the module's defaults.  On any error nothing is left.\n"
"\n"
"  -s, --size SIZE                  capacity, a multiple of the sector size\n"
"      --sector-size SIZE           logical block size: 512 to 4096\n"
"      --physical-sector-size SIZE  physical block size\n"
"  -n, --name NAME                  configfs name (default: first free diskN)\n"
"      --queue-mode MODE            bio (bios served as submitted) or mq\n"
"                                   (blk-mq, with hardware queues)\n"
"      --queues N                   hardware queues; implies --queue-mode mq\n"
"      --queue-depth N              tags per hardware queue; implies\n"
"                                   --queue-mode mq\n"
"      --poll-queues N              hardware queues for polled I/O (io_uring\n"
"                                   IOPOLL, RWF_HIPRI), besides the others;\n"
"                                   implies --queue-mode mq\n"
"      --partitions N               most partitions the disk can hold\n"
"      --no-discard                 do not support discard\n"
"  -r, --read-only                  make the disk read-only\n"
"  -h, --help                       show this help\n"
"\n"
"NAME: 1 to 255 of A-Z a-z 0-9 . _ -, not starting with '.', not sbdN.\n"
"Exit status: 0 made, 1 refused (the message names the attribute), 2 usage,\n"
"3 no module or configfs.\n";

static const char usage_list[] =
"Usage: sbdctl list [--json] [--bytes]\n"
"\n"
"Shows every sbd disk: those made by the module parameters (NAME -) and\n"
"those made by 'sbdctl create', powered off ones too (DEVICE -), by device\n"
"number, then powered-off disks by name.  MODE is the queue mode, bio or mq\n"
"(- when the module does not say).\n"
"\n"
"  -b, --bytes  sizes in bytes instead of 1K, 1.5G...\n"
"  -J, --json   a JSON array of objects: device (null when off), name (null\n"
"               for module-parameter disks), size, log-sec, phy-sec,\n"
"               queue-mode (\"bio\" or \"mq\", null when unknown),\n"
"               poll-queues (null when unknown), memory (bytes; null when\n"
"               off), ro (true or false)\n"
"  -h, --help   show this help\n"
"\n"
"Exit status: 0 shown, 1 error, 2 usage, 3 no module.\n";

static const char usage_resize[] =
"Usage: sbdctl resize DEV SIZE\n"
"\n"
"Sets the size of a disk made by 'sbdctl create'; a powered disk is resized\n"
"online.  Shrinking drops the data past the new end.\n"
"Exit status: 0 done, 1 refused, 2 usage, 3 no module or configfs, 4 no DEV.\n";

static const char usage_ro[] =
"Usage: sbdctl ro DEV\n"
"\n"
"Makes a disk made by 'sbdctl create' read-only.\n"
"Exit status: 0 done, 1 refused, 2 usage, 3 no module or configfs, 4 no DEV.\n";

static const char usage_rw[] =
"Usage: sbdctl rw DEV\n"
"\n"
"Makes a disk made by 'sbdctl create' writable.\n"
"Exit status: 0 done, 1 refused, 2 usage, 3 no module or configfs, 4 no DEV.\n";

static const char usage_remove[] =
"Usage: sbdctl remove [--force] DEV\n"
"\n"
"Powers a disk made by 'sbdctl create' off and frees it and its data.  A\n"
"disk that 'sbdctl export' serves is refused: unexport it first.\n"
"\n"
"  -f, --force  unexport it first\n"
"  -h, --help   show this help\n"
"Exit status: 0 done, 1 refused, 2 usage, 3 no module or configfs, 4 no DEV.\n";

static const char usage_snapshot[] =
"Usage: sbdctl snapshot DEV [--log-limit SIZE] [--log-full-fail]\n"
"\n"
"Takes a snapshot of what the disk holds durably (its write cache is written\n"
"out first): 'sbdctl restore' comes back to it.  With a log limit, the disk\n"
"also logs every write, discard, flush and mark from now on, keeping up to\n"
"SIZE of them; its crash states are then what 'sbdctl crash-image' makes.\n"
"A snapshot taken over another stacks on it.  The disk's size is fixed\n"
"while it has one.\n"
"\n"
"  -l, --log-limit SIZE  log up to SIZE (data and entries); 0: no log\n"
"  -f, --log-full-fail   once the log is full, fail writes (ENOSPC) instead\n"
"                        of going on without logging them\n"
"  -h, --help            show this help\n"
"Exit status: 0 done, 1 refused, 2 usage, 3 no module or configfs, 4 no DEV.\n";

static const char usage_restore[] =
"Usage: sbdctl restore DEV\n"
"\n"
"Brings the disk back to its snapshot, in time proportional to what was\n"
"written since, and starts its write log over.  Refused while the disk is\n"
"open (mounted).\n"
"Exit status: 0 done, 1 refused, 2 usage, 3 no module or configfs, 4 no DEV.\n";

static const char usage_mark[] =
"Usage: sbdctl mark DEV LABEL\n"
"\n"
"Puts a mark into the disk's write log, in order with its I/O: e.g. after an\n"
"fsync returned, to tell a crash state's checker what had been made\n"
"durable.  LABEL: 1 to 63 printable characters.\n"
"Exit status: 0 done, 1 refused, 2 usage, 3 no module or configfs, 4 no DEV.\n";

static const char usage_log[] =
"Usage: sbdctl log DEV [--json]\n"
"\n"
"Shows the disk's write log: how full it is, then each epoch (the writes\n"
"between two flushes; epoch 0 is the snapshot) with its writes, FUA writes\n"
"and marks.  Crash state (E, K) is epoch E made durable plus, of the n\n"
"writes of epoch E + 1, the first K (K <= n) or a seeded choice (K > n).\n"
"\n"
"  -J, --json  an object: entries, epochs, bytes, limit, full, dropped,\n"
"              stopped, and \"epoch-list\": objects of epoch, first, count,\n"
"              writes, fua, flushed and marks (objects of entry, after, label)\n"
"  -h, --help  show this help\n"
"Exit status: 0 shown, 1 error, 2 usage, 3 no module or configfs, 4 no DEV.\n";

static const char usage_crash_image[] =
"Usage: sbdctl crash-image DEV --epoch E --state K [--name NAME] [--json]\n"
"\n"
"Makes crash state (E, K) of DEV's write log a new disk, powers it on and\n"
"prints its device; DEV keeps serving I/O meanwhile.  The new disk shares\n"
"the snapshot's pages: it costs what differs.  Remove it with 'sbdctl\n"
"remove'.  On any error nothing is left.\n"
"\n"
"  -e, --epoch E  the epoch made durable (0: the snapshot)\n"
"  -k, --state K  0..n: the first K writes of epoch E + 1; above n: seeded\n"
"  -n, --name NAME  configfs name (default: first free diskN)\n"
"  -J, --json     an object: device, name, source, epoch, state, writes (n),\n"
"                 mark (the last before the crash point, or null)\n"
"  -h, --help     show this help\n"
"Exit status: 0 made, 1 refused, 2 usage, 3 no module or configfs, 4 no DEV.\n";

int __attribute__((format(printf, 2, 3)))
errorf(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("sbdctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

/* A usage error of the command cmd. */
int __attribute__((format(printf, 2, 3)))
usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("sbdctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (cmd)
		fprintf(stderr, " (see 'sbdctl %s --help')\n", cmd);
	else
		fputs(" (see 'sbdctl --help')\n", stderr);
	return SBDCTL_EXIT_USAGE;
}

/* Memory runs out before anything was changed: nothing to undo. */
void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		errorf(SBDCTL_EXIT_FAIL, "out of memory");
		exit(SBDCTL_EXIT_FAIL);
	}
	return p;
}

bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * Reads a small attribute file into buf, without its trailing newline.
 * Returns 0 or -errno.
 */
int read_file(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (!n)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return ret;
}

/* Reads a decimal attribute: 0, -errno, or -EINVAL when it is not one. */
int read_u64(const char *path, uint64_t *v)
{
	char buf[64];
	int ret;

	ret = read_file(path, buf, sizeof(buf));
	if (ret)
		return ret;
	return parse_attr_u64(buf, v);
}

/* A uuid attribute, or "" where there is none (an older module). */
void read_uuid(const char *path, char uuid[SBDCTL_UUID_LEN + 1])
{
	if (read_file(path, uuid, SBDCTL_UUID_LEN + 1) ||
	    strlen(uuid) != SBDCTL_UUID_LEN)
		uuid[0] = '\0';
}

/*
 * A queue_mode attribute: the mode it shows, QUEUE_MODE_UNKNOWN when it is
 * missing (an older module) or shows something else.
 */
static enum queue_mode read_mode(const char *path)
{
	char buf[16];

	if (read_file(path, buf, sizeof(buf)))
		return QUEUE_MODE_UNKNOWN;
	return parse_queue_mode(buf);
}

/* The path of attribute attr (or the item itself for NULL) of item. */
void item_path(char *buf, const char *item, const char *attr)
{
	if (attr)
		snprintf(buf, PATH_MAX, "%s/%s/%s", cfs_root, item, attr);
	else
		snprintf(buf, PATH_MAX, "%s/%s", cfs_root, item);
}

/*
 * Writes "val\n" to path, as `echo val > path` does: 0 or -errno.
 * configfs hands the write to the driver at once, so its error comes back
 * from write().
 */
int write_path(const char *path, const char *val)
{
	char line[512];
	size_t len = snprintf(line, sizeof(line), "%s\n", val);
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, line, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* Writes "val\n" to an attribute of item: 0 or -errno. */
int write_attr(const char *item, const char *attr, const char *val)
{
	char path[PATH_MAX];

	item_path(path, item, attr);
	return write_path(path, val);
}

/* write_attr that says what failed: "sbdctl: size=4096: Invalid argument". */
int set_attr(const char *item, const char *attr, const char *val)
{
	int ret = write_attr(item, attr, val);

	if (!ret)
		return SBDCTL_EXIT_OK;
	if (!strcmp(attr, "power") && !strcmp(val, "0") && ret == -EBUSY)
		return errorf(SBDCTL_EXIT_FAIL, "%s=%s: %s (is it in use?)",
			      attr, val, strerror(-ret));
	return errorf(SBDCTL_EXIT_FAIL, "%s=%s: %s", attr, val, strerror(-ret));
}

int set_attr_u64(const char *item, const char *attr, uint64_t v)
{
	char val[32];

	snprintf(val, sizeof(val), "%llu", (unsigned long long)v);
	return set_attr(item, attr, val);
}

int check_module(void)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/module/sbd", sys_root);
	if (!is_dir(path))
		return errorf(SBDCTL_EXIT_NOMOD,
			      "sbd module is not loaded (modprobe sbd)");
	return SBDCTL_EXIT_OK;
}

int check_configfs(void)
{
	char mnt[ROOT_MAX + 1], *slash;

	if (is_dir(cfs_root))
		return SBDCTL_EXIT_OK;
	strcpy(mnt, cfs_root);
	slash = strrchr(mnt, '/');
	if (slash && slash != mnt)
		*slash = '\0';
	return errorf(SBDCTL_EXIT_NOMOD,
		      "%s not found: is configfs mounted? (mount -t configfs none %s)",
		      cfs_root, mnt);
}

int read_attr(const char *item, const char *attr, char *buf,
		     size_t size)
{
	char path[PATH_MAX];

	item_path(path, item, attr);
	return read_file(path, buf, size);
}

int item_index(const char *item)
{
	char dev[64];
	char path[PATH_MAX];

	item_path(path, item, "device");
	if (read_file(path, dev, sizeof(dev)))
		return -1;
	return sbd_index(dev);
}

/*
 * Whether item supports attribute attr: listed in its "features", or, with
 * no such file, present.
 */
bool item_has(const char *item, const char *attr)
{
	char path[PATH_MAX], features[4096];
	struct stat st;

	item_path(path, item, "features");
	if (!read_file(path, features, sizeof(features)))
		return features_has(features, attr);
	item_path(path, item, attr);
	return !stat(path, &st);
}

/* ---- the disks: sysfs for every powered one, configfs for the rest ---- */

struct table {
	struct sbd_entry *e;
	size_t n, cap;
};

static struct sbd_entry *table_add(struct table *t)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->e = xrealloc(t->e, t->cap * sizeof(t->e[0]));
	}
	memset(&t->e[t->n], 0, sizeof(t->e[0]));
	return &t->e[t->n++];
}

/*
 * Fills e from /sys/block/sbdN.  Returns 0, -ENOENT when the disk is gone
 * (it may go while we look), or another error, already reported.
 */
static int read_disk(int index, struct sbd_entry *e)
{
	static const char *const files[] = {
		"size", "ro", "queue/logical_block_size",
		"queue/physical_block_size",
	};
	uint64_t *vals[] = { &e->size, NULL, &e->lbs, &e->pbs };
	char path[PATH_MAX];
	uint64_t ro;
	size_t i;
	int ret;

	e->index = index;
	vals[1] = &ro;
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s/block/sbd%d/%s", sys_root,
			 index, files[i]);
		ret = read_u64(path, vals[i]);
		if (ret == -ENOENT)
			return ret;
		if (ret) {
			errorf(SBDCTL_EXIT_FAIL, "%s: %s", path, strerror(-ret));
			return ret;
		}
	}
	e->ro = ro;
	if (e->size > UINT64_MAX / 512)
		e->size = UINT64_MAX;
	else
		e->size *= 512;
	/* sbd's own attributes: shown when there */
	snprintf(path, sizeof(path), "%s/block/sbd%d/sbd/mem_bytes", sys_root,
		 index);
	e->has_mem = !read_u64(path, &e->mem);
	snprintf(path, sizeof(path), "%s/block/sbd%d/sbd/queue_mode", sys_root,
		 index);
	e->mode = read_mode(path);
	snprintf(path, sizeof(path), "%s/block/sbd%d/sbd/poll_queues", sys_root,
		 index);
	e->has_polls = !read_u64(path, &e->polls);
	snprintf(path, sizeof(path), "%s/block/sbd%d/sbd/name", sys_root, index);
	if (read_file(path, e->name, sizeof(e->name)) || strchr(e->name, '/'))
		e->name[0] = '\0';
	snprintf(path, sizeof(path), "%s/block/sbd%d/sbd/uuid", sys_root, index);
	read_uuid(path, e->uuid);
	return 0;
}

/* Fills e, a powered-off item, from its configfs attributes. */
static int read_item(const char *name, struct sbd_entry *e)
{
	static const char *const attrs[] = {
		"size", "logical_block_size", "physical_block_size",
		"read_only",
	};
	uint64_t ro, *vals[] = { &e->size, &e->lbs, &e->pbs, NULL };
	char path[PATH_MAX];
	size_t i;
	int ret;

	e->index = -1;
	snprintf(e->name, sizeof(e->name), "%s", name);
	vals[3] = &ro;
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		item_path(path, name, attrs[i]);
		ret = read_u64(path, vals[i]);
		if (ret == -ENOENT)
			return ret;
		if (ret) {
			errorf(SBDCTL_EXIT_FAIL, "%s: %s", path, strerror(-ret));
			return ret;
		}
	}
	e->ro = ro;
	item_path(path, name, "queue_mode");
	e->mode = read_mode(path);
	/* a bio disk keeps poll_queues for when it is mq again: it has none */
	item_path(path, name, "poll_queues");
	e->has_polls = !read_u64(path, &e->polls);
	if (e->mode == QUEUE_MODE_BIO)
		e->polls = 0;
	item_path(path, name, "uuid");
	read_uuid(path, e->uuid);
	return 0;
}

static struct sbd_entry *table_find(struct table *t, int index)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->e[i].index == index)
			return &t->e[i];
	return NULL;
}

static int scan_sysfs(struct table *t)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dir;
	int index, ret = 0;

	snprintf(path, sizeof(path), "%s/block", sys_root);
	dir = opendir(path);
	if (!dir)
		return errorf(SBDCTL_EXIT_FAIL, "%s: %s", path, strerror(errno));
	while ((d = readdir(dir))) {
		index = sbd_index(d->d_name);
		if (index < 0)
			continue;
		ret = read_disk(index, table_add(t));
		if (ret == -ENOENT) {
			t->n--;
			ret = 0;
		} else if (ret) {
			break;
		}
	}
	closedir(dir);
	return ret ? SBDCTL_EXIT_FAIL : SBDCTL_EXIT_OK;
}

/*
 * Adds the powered-off items and names the powered ones whose sysfs did
 * not (a module without sbd/name).
 */
static int scan_configfs(struct table *t)
{
	char path[PATH_MAX], dev[64];
	struct sbd_entry *e;
	struct dirent *d;
	DIR *dir;
	int index, ret = 0;

	dir = opendir(cfs_root);
	if (!dir)
		return errorf(SBDCTL_EXIT_FAIL, "%s: %s", cfs_root,
			      strerror(errno));
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' ||
		    strlen(d->d_name) > SBDCTL_NAME_MAX)
			continue;
		item_path(path, d->d_name, "device");
		if (read_file(path, dev, sizeof(dev)))
			continue;	/* not an item, or gone */
		if (!dev[0]) {
			ret = read_item(d->d_name, table_add(t));
		} else {
			index = sbd_index(dev);
			if (index < 0)
				continue;
			e = table_find(t, index);
			if (!e) {	/* powered on after the sysfs scan */
				e = table_add(t);
				ret = read_disk(index, e);
			}
			if (!ret && !e->name[0])
				snprintf(e->name, sizeof(e->name), "%s",
					 d->d_name);
		}
		if (ret == -ENOENT) {
			t->n--;
			ret = 0;
		} else if (ret) {
			break;
		}
	}
	closedir(dir);
	return ret ? SBDCTL_EXIT_FAIL : SBDCTL_EXIT_OK;
}

/* ---- list ---------------------------------------------------------- */

void print_json_string(const char *s)
{
	size_t n = json_escape(s, NULL, 0) + 1;
	char *buf = xrealloc(NULL, n);

	json_escape(s, buf, n);
	fputs(buf, stdout);
	free(buf);
}

/*
 * Whether udev made the stable name of disk sbdN, DEVDIR/sbd/by-name/NAME
 * (60-sbd.rules), and it leads to that disk: the link in buf.
 */
bool by_name_link(const char *name, int index, char *buf, size_t len)
{
	char dev[ROOT_MAX + 32], *a, *b;
	bool same;

	snprintf(buf, len, "%s/" SBD_BY_NAME "/%s", dev_dir, name);
	snprintf(dev, sizeof(dev), "%s/sbd%d", dev_dir, index);
	a = realpath(buf, NULL);
	b = realpath(dev, NULL);
	same = a && b && !strcmp(a, b);
	free(a);
	free(b);
	return same;
}

static void print_json(const struct table *t)
{
	const struct sbd_entry *e;
	char dev[ROOT_MAX + 32];
	const char *mode;
	size_t i;

	if (!t->n) {
		puts("[]");
		return;
	}
	puts("[");
	for (i = 0; i < t->n; i++) {
		e = &t->e[i];
		fputs("  {\"device\": ", stdout);
		if (e->index >= 0) {
			snprintf(dev, sizeof(dev), "%s/sbd%d", dev_dir, e->index);
			print_json_string(dev);
		} else {
			fputs("null", stdout);
		}
		fputs(", \"name\": ", stdout);
		if (e->name[0])
			print_json_string(e->name);
		else
			fputs("null", stdout);
		fputs(", \"link\": ", stdout);
		if (e->index >= 0 && e->name[0] &&
		    by_name_link(e->name, e->index, dev, sizeof(dev)))
			print_json_string(dev);
		else
			fputs("null", stdout);
		printf(", \"size\": %llu, \"log-sec\": %llu, \"phy-sec\": %llu, \"queue-mode\": ",
		       (unsigned long long)e->size, (unsigned long long)e->lbs,
		       (unsigned long long)e->pbs);
		mode = queue_mode_name(e->mode);
		if (mode)
			printf("\"%s\"", mode);
		else
			fputs("null", stdout);
		fputs(", \"poll-queues\": ", stdout);
		if (e->has_polls)
			printf("%llu", (unsigned long long)e->polls);
		else
			fputs("null", stdout);
		fputs(", \"memory\": ", stdout);
		if (e->has_mem)
			printf("%llu", (unsigned long long)e->mem);
		else
			fputs("null", stdout);
		fputs(", \"uuid\": ", stdout);
		if (e->uuid[0])
			print_json_string(e->uuid);
		else
			fputs("null", stdout);
		printf(", \"ro\": %s}%s\n", e->ro ? "true" : "false",
		       i + 1 < t->n ? "," : "");
	}
	puts("]");
}

enum {
	COL_DEVICE, COL_NAME, COL_SIZE, COL_LOG, COL_PHY, COL_MODE, COL_MEM,
	COL_RO, NR_COLS
};

static const char *const col_head[NR_COLS] = {
	"DEVICE", "NAME", "SIZE", "LOG-SEC", "PHY-SEC", "MODE", "MEMORY", "RO",
};

/* The words are aligned left, as lsblk does, the numbers right. */
static const bool col_left[NR_COLS] = {
	[COL_DEVICE] = true, [COL_NAME] = true, [COL_MODE] = true,
};

/* The longest cell: a path, or a name with each byte as \xHH. */
#define CELL_MAX	(4 * (ROOT_MAX + SBDCTL_NAME_MAX) + 32)

/* Column c of e as the table shows it. */
static void format_cell(const struct sbd_entry *e, int c, bool bytes,
			char *buf)
{
	char dev[ROOT_MAX + 32];
	const char *mode;
	uint64_t v;

	switch (c) {
	case COL_DEVICE:
		if (e->index < 0) {
			strcpy(buf, "-");
			return;
		}
		snprintf(dev, sizeof(dev), "%s/sbd%d", dev_dir, e->index);
		table_escape(dev, buf, CELL_MAX);
		return;
	case COL_NAME:
		if (e->name[0])
			table_escape(e->name, buf, CELL_MAX);
		else
			strcpy(buf, "-");
		return;
	case COL_MODE:
		mode = queue_mode_name(e->mode);
		strcpy(buf, mode ? mode : "-");
		return;
	case COL_RO:
		strcpy(buf, e->ro ? "1" : "0");
		return;
	case COL_MEM:
		if (!e->has_mem) {
			strcpy(buf, "-");
			return;
		}
		v = e->mem;
		break;
	case COL_SIZE:
		v = e->size;
		break;
	default:
		snprintf(buf, CELL_MAX, "%llu", (unsigned long long)
			 (c == COL_LOG ? e->lbs : e->pbs));
		return;
	}
	if (bytes)
		snprintf(buf, CELL_MAX, "%llu", (unsigned long long)v);
	else
		format_size(v, buf, CELL_MAX);
}

/* One cell of a row, its column separator or the end of the line after. */
static void print_cell(int c, int width, const char *text)
{
	printf(col_left[c] ? "%-*s%s" : "%*s%s", width, text,
	       c + 1 < NR_COLS ? " " : "\n");
}

static void print_table(const struct table *t, bool bytes)
{
	static char buf[CELL_MAX];
	int width[NR_COLS], c;
	size_t i;

	if (!t->n)
		return;
	for (c = 0; c < NR_COLS; c++) {
		width[c] = (int)strlen(col_head[c]);
		for (i = 0; i < t->n; i++) {
			format_cell(&t->e[i], c, bytes, buf);
			if ((int)strlen(buf) > width[c])
				width[c] = (int)strlen(buf);
		}
	}
	for (c = 0; c < NR_COLS; c++)
		print_cell(c, width[c], col_head[c]);
	for (i = 0; i < t->n; i++) {
		for (c = 0; c < NR_COLS; c++) {
			format_cell(&t->e[i], c, bytes, buf);
			print_cell(c, width[c], buf);
		}
	}
}

/* What is wrong with the long option arg, for the error message. */
static const char *long_opt_problem(const char *arg,
				    const struct option *longopts)
{
	size_t n = strcspn(arg + 2, "=");
	const struct option *o;
	int matches = 0;

	for (o = longopts; o->name; o++) {
		if (strncmp(o->name, arg + 2, n))
			continue;
		if (!o->name[n])	/* exact: its value is the problem */
			return arg[2 + n] ? "takes no value" : "needs a value";
		matches++;
	}
	return matches > 1 ? "is ambiguous" : "is unknown";
}

/*
 * getopt_long for the options of cmd, with usage errors of our own.
 * Returns the option, -1 at the end, or -2 after a usage error.
 */
/*
 * Blocks the signals that would stop sbdctl half-way through a change
 * (^C, kill, hangup, quit) until the caller restores *old: whatever the
 * change needs undone is undone first.
 */
void hold_signals(sigset_t *old)
{
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGQUIT);
	sigprocmask(SIG_BLOCK, &block, old);
}

int next_opt(const char *cmd, int argc, char **argv,
	     const char *shortopts, const struct option *longopts)
{
	int opt = getopt_long(argc, argv, shortopts, longopts, NULL);
	const char *arg = argv[optind - 1];

	if (opt != '?' && opt != ':')
		return opt;
	if (!strncmp(arg, "--", 2))
		usage_error(cmd, "option '%.*s' %s", (int)strcspn(arg, "="), arg,
			    long_opt_problem(arg, longopts));
	else if (opt == ':')
		usage_error(cmd, "option '-%c' needs a value", optopt);
	else
		usage_error(cmd, "option '-%c' is unknown", optopt);
	return -2;
}

static int cmd_list(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "bytes", no_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	struct table t = { };
	bool json = false, bytes = false;
	int opt, ret;

	while ((opt = next_opt("list", argc, argv, ":bJh", longopts)) != -1) {
		switch (opt) {
		case 'b':
			bytes = true;
			break;
		case 'J':
			json = true;
			break;
		case 'h':
			fputs(usage_list, stdout);
			return SBDCTL_EXIT_OK;
		default:
			return SBDCTL_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return usage_error("list", "unexpected argument '%s'",
				   argv[optind]);
	ret = check_module();
	if (ret)
		return ret;
	ret = scan_sysfs(&t);
	if (!ret) {
		if (is_dir(cfs_root))
			ret = scan_configfs(&t);
		else
			errorf(0, "%s not found (is configfs mounted?): %s",
			       cfs_root, "powered-off disks are not shown");
	}
	if (!ret) {
		if (t.n)	/* t.e may be NULL: qsort wants an array */
			qsort(t.e, t.n, sizeof(t.e[0]), entry_cmp);
		if (json)
			print_json(&t);
		else
			print_table(&t, bytes);
	}
	free(t.e);
	return ret;
}

/* ---- create -------------------------------------------------------- */

/*
 * The create options that set one attribute each, in writing order.  All
 * take a number but OPT_MODE, whose value is an enum queue_mode written as
 * its name.
 */
enum {
	OPT_LBS, OPT_PBS, OPT_SIZE, OPT_MODE, OPT_QUEUES, OPT_DEPTH, OPT_POLL,
	OPT_PARTS, OPT_DISCARD, OPT_RO, NR_CREATE_ATTRS
};

static const struct create_attr {
	const char *attr, *option;
} create_attrs[NR_CREATE_ATTRS] = {
	/* the block size first: the size must be a multiple of it */
	[OPT_LBS]	= { "logical_block_size", "--sector-size" },
	[OPT_PBS]	= { "physical_block_size", "--physical-sector-size" },
	[OPT_SIZE]	= { "size", "--size" },
	/* the mode before the queues: a bio disk refuses them */
	[OPT_MODE]	= { "queue_mode", "--queue-mode" },
	[OPT_QUEUES]	= { "hw_queues", "--queues" },
	[OPT_DEPTH]	= { "queue_depth", "--queue-depth" },
	[OPT_POLL]	= { "poll_queues", "--poll-queues" },
	[OPT_PARTS]	= { "partitions", "--partitions" },
	[OPT_DISCARD]	= { "discard", "--no-discard" },
	[OPT_RO]	= { "read_only", "--read-only" },
};

_Static_assert(NR_CREATE_ORDER == NR_CREATE_ATTRS, "sbdctl.h's count");

int create_order(const char *attr)
{
	int i;

	for (i = 0; i < NR_CREATE_ATTRS; i++)
		if (!strcmp(create_attrs[i].attr, attr))
			return i;
	return NR_CREATE_ATTRS;
}

/* mkdir of a new item: name, or the first free diskN.  Fills name. */
int make_item(char *name, bool given)
{
	char path[PATH_MAX], **names = NULL;
	struct dirent *d;
	size_t n, cap;
	DIR *dir;
	int tries;

	if (given) {
		item_path(path, name, NULL);
		if (!mkdir(path, 0755))
			return SBDCTL_EXIT_OK;
		if (errno == EEXIST)
			return errorf(SBDCTL_EXIT_FAIL,
				      "a disk named '%s' already exists", name);
		return errorf(SBDCTL_EXIT_FAIL, "cannot create disk '%s': %s",
			      name, strerror(errno));
	}
	/* another sbdctl may take the same name: then try the next */
	for (tries = 0; tries < 100; tries++) {
		dir = opendir(cfs_root);
		if (!dir)
			return errorf(SBDCTL_EXIT_FAIL, "%s: %s", cfs_root,
				      strerror(errno));
		n = 0;
		cap = 0;
		while ((d = readdir(dir))) {
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				names = xrealloc(names, cap * sizeof(*names));
			}
			names[n] = xrealloc(NULL, strlen(d->d_name) + 1);
			strcpy(names[n++], d->d_name);
		}
		closedir(dir);
		snprintf(name, SBDCTL_NAME_MAX + 1, "disk%u",
			 first_free_disk_name((const char *const *)names, n));
		while (n)
			free(names[--n]);
		item_path(path, name, NULL);
		if (!mkdir(path, 0755)) {
			free(names);
			return SBDCTL_EXIT_OK;
		}
		if (errno != EEXIST)
			break;
	}
	free(names);
	return errorf(SBDCTL_EXIT_FAIL, "cannot create disk '%s': %s", name,
		      strerror(errno));
}

/* Takes back a create that failed: power off, rmdir. */
void undo_create(const char *name, bool powered)
{
	char path[PATH_MAX];

	if (powered)
		write_attr(name, "power", "0");
	item_path(path, name, NULL);
	if (rmdir(path))
		errorf(0, "could not remove the unfinished disk '%s': %s", name,
		       strerror(errno));
}

static int parse_size_opt(const char *cmd, const char *s, uint64_t *v)
{
	if (parse_size(s, v))
		return usage_error(cmd, "invalid size '%s'", s);
	return SBDCTL_EXIT_OK;
}

static int cmd_create(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "sector-size", required_argument, NULL, 'L' },
		{ "physical-sector-size", required_argument, NULL, 'P' },
		{ "name", required_argument, NULL, 'n' },
		{ "queue-mode", required_argument, NULL, 'M' },
		{ "queues", required_argument, NULL, 'q' },
		{ "queue-depth", required_argument, NULL, 'd' },
		{ "poll-queues", required_argument, NULL, 'O' },
		{ "partitions", required_argument, NULL, 'p' },
		{ "no-discard", no_argument, NULL, 'D' },
		{ "read-only", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	uint64_t val[NR_CREATE_ATTRS] = { };
	bool set[NR_CREATE_ATTRS] = { };
	char name[SBDCTL_NAME_MAX + 1] = "", path[PATH_MAX], dev[64];
	bool named = false, powered = false, mode_implied = false;
	sigset_t old;
	int opt, a, i, err, ret;

	while ((opt = next_opt("create", argc, argv, ":s:n:rh", longopts)) != -1) {
		a = -1;
		ret = SBDCTL_EXIT_OK;
		switch (opt) {
		case 's':
			a = OPT_SIZE;
			ret = parse_size_opt("create", optarg, &val[a]);
			if (!ret && !val[a])
				ret = usage_error("create", "invalid size '%s'",
						  optarg);
			break;
		case 'L':
		case 'P':
			a = opt == 'L' ? OPT_LBS : OPT_PBS;
			ret = parse_size_opt("create", optarg, &val[a]);
			break;
		case 'M':
			a = OPT_MODE;
			val[a] = parse_queue_mode(optarg);
			if (val[a] == QUEUE_MODE_UNKNOWN)
				ret = usage_error("create",
						  "invalid queue mode '%s': use bio or mq",
						  optarg);
			break;
		case 'q':
		case 'd':
		case 'O':
		case 'p':
			a = opt == 'q' ? OPT_QUEUES : opt == 'd' ? OPT_DEPTH :
			    opt == 'O' ? OPT_POLL : OPT_PARTS;
			if (parse_uint(optarg, UINT32_MAX, &val[a]))
				ret = usage_error("create", "invalid number '%s' for %s",
						  optarg, create_attrs[a].option);
			break;
		case 'D':
			a = OPT_DISCARD;
			val[a] = 0;
			break;
		case 'r':
			a = OPT_RO;
			val[a] = 1;
			break;
		case 'n':
			if (!valid_disk_name(optarg))
				return usage_error("create",
						   "invalid name '%s': use 1 to %d of A-Z a-z 0-9 . _ -, not starting with '.', not sbdN",
						   optarg, SBDCTL_NAME_MAX);
			strcpy(name, optarg);
			named = true;
			break;
		case 'h':
			fputs(usage_create, stdout);
			return SBDCTL_EXIT_OK;
		default:
			return SBDCTL_EXIT_USAGE;
		}
		if (ret)
			return ret;
		if (a >= 0)
			set[a] = true;
	}
	if (optind < argc)
		return usage_error("create", "unexpected argument '%s'",
				   argv[optind]);
	if (!set[OPT_SIZE])
		return usage_error("create", "--size is required");
	/* hardware queues are blk-mq's: they ask for mq, a bio disk has none */
	for (i = OPT_QUEUES; i <= OPT_POLL; i++) {
		if (!set[i])
			continue;
		if (!set[OPT_MODE]) {
			set[OPT_MODE] = true;
			val[OPT_MODE] = QUEUE_MODE_MQ;
			mode_implied = true;
		} else if (val[OPT_MODE] != QUEUE_MODE_MQ) {
			return usage_error("create", "%s needs --queue-mode mq",
					   create_attrs[i].option);
		}
	}
	ret = check_module();
	if (!ret)
		ret = check_configfs();
	if (ret)
		return ret;

	/*
	 * No half-made disk left behind by a ^C: the signal waits until the
	 * disk is made and printed, or undone.
	 */
	hold_signals(&old);

	ret = make_item(name, named);
	if (ret)
		goto out;
	/* a module without queue_mode has only mq: nothing to ask for */
	if (mode_implied && !item_has(name, create_attrs[OPT_MODE].attr))
		set[OPT_MODE] = false;
	for (i = 0; i < NR_CREATE_ATTRS && !ret; i++) {
		if (set[i] && !item_has(name, create_attrs[i].attr))
			ret = errorf(SBDCTL_EXIT_FAIL,
				     "%s is not supported by the loaded sbd module (no %s attribute)",
				     create_attrs[i].option, create_attrs[i].attr);
	}
	for (i = 0; i < NR_CREATE_ATTRS && !ret; i++) {
		if (!set[i])
			continue;
		if (i == OPT_MODE)
			ret = set_attr(name, create_attrs[i].attr,
				       queue_mode_name(val[i]));
		else
			ret = set_attr_u64(name, create_attrs[i].attr, val[i]);
	}
	if (!ret) {
		ret = set_attr(name, "power", "1");
		powered = !ret;
	}
	if (!ret) {
		item_path(path, name, "device");
		err = read_file(path, dev, sizeof(dev));
		if (err)
			ret = errorf(SBDCTL_EXIT_FAIL, "%s: %s", path,
				     strerror(-err));
		else if (sbd_index(dev) < 0)
			ret = errorf(SBDCTL_EXIT_FAIL,
				     "power=1 gave no device ('%s' in %s)", dev,
				     path);
	}
	if (ret)
		undo_create(name, powered);
	else
		printf("%s/%s\n", dev_dir, dev);
out:
	fflush(stdout);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

/* ---- the commands on one disk -------------------------------------- */

/*
 * The disk the user named by arg: its configfs item in item ("" for a
 * disk of the module parameters) and, when arg named its device, its
 * number in *index (else -1).  Returns 0, or the exit code after the error
 * message.
 */
int lookup_disk(const char *arg, char *item, int *index)
{
	char path[PATH_MAX], dev[64], buf[SBDCTL_NAME_MAX + 2];
	struct dirent *d;
	struct dev_arg da;
	DIR *dir;
	int ret;

	*index = -1;
	ret = check_module();
	if (ret)
		return ret;
	switch (parse_dev_arg(arg, dev_dir, &da)) {
	case DEV_PARTITION:
		return errorf(SBDCTL_EXIT_NODEV,
			      "%s is a partition, not a disk (sbd%d is the disk)",
			      arg, da.index);
	case DEV_INVALID:
		return errorf(SBDCTL_EXIT_NODEV, "no such sbd disk: %s", arg);
	case DEV_NAME:
		ret = check_configfs();
		if (ret)
			return ret;
		item_path(path, da.name, NULL);
		if (strlen(da.name) > SBDCTL_NAME_MAX || !is_dir(path))
			return errorf(SBDCTL_EXIT_NODEV, "no such sbd disk: %s",
				      arg);
		strcpy(item, da.name);
		return SBDCTL_EXIT_OK;
	case DEV_INDEX:
		break;
	}

	snprintf(path, sizeof(path), "%s/block/sbd%d", sys_root, da.index);
	if (!is_dir(path)) {
		/* not a device: maybe an item someone named "sbdN" by hand */
		if (!strchr(arg, '/') && is_dir(cfs_root)) {
			item_path(path, arg, NULL);
			if (is_dir(path)) {
				strcpy(item, arg);
				return SBDCTL_EXIT_OK;
			}
		}
		return errorf(SBDCTL_EXIT_NODEV, "no such sbd disk: %s", arg);
	}
	/* a device: its item is in sysfs, or the one whose device it is */
	*index = da.index;
	item[0] = '\0';
	snprintf(path, sizeof(path), "%s/block/sbd%d/sbd/name", sys_root,
		 da.index);
	if (!read_file(path, buf, sizeof(buf)) && buf[0] && !strchr(buf, '/') &&
	    strlen(buf) <= SBDCTL_NAME_MAX)
		strcpy(item, buf);
	dir = item[0] ? NULL : opendir(cfs_root);
	if (dir) {
		while ((d = readdir(dir))) {
			if (d->d_name[0] == '.' ||
			    strlen(d->d_name) > SBDCTL_NAME_MAX)
				continue;
			item_path(path, d->d_name, "device");
			if (!read_file(path, dev, sizeof(dev)) &&
			    sbd_index(dev) == da.index) {
				strcpy(item, d->d_name);
				break;
			}
		}
		closedir(dir);
	}
	if (!item[0])
		return SBDCTL_EXIT_OK;	/* a module-parameter disk */
	return check_configfs();
}

/*
 * The configfs item of a disk the user named by arg, in item: a disk of
 * the module parameters, which has none, is refused.  Returns 0, or the
 * exit code after the error message.
 */
int resolve(const char *arg, char *item)
{
	int index, ret = lookup_disk(arg, item, &index);

	if (!ret && !item[0])
		return errorf(SBDCTL_EXIT_FAIL,
			      "sbd%d was created by module parameters; only disks made by 'sbdctl create' can be changed",
			      index);
	return ret;
}

/*
 * The options of a command whose only option is --help: 0, a usage exit
 * code, or SBDCTL_HELP_SHOWN when the help was asked for and shown.
 */
int help_only(const char *cmd, const char *usage, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	int opt;

	while ((opt = next_opt(cmd, argc, argv, ":h", longopts)) != -1) {
		if (opt != 'h')
			return SBDCTL_EXIT_USAGE;
		fputs(usage, stdout);
		return SBDCTL_HELP_SHOWN;
	}
	return SBDCTL_EXIT_OK;
}

/*
 * Parses the options (--help) and the nargs arguments (DEV, SIZE) of a
 * one-disk command: as help_only().
 */
static int disk_args(const char *cmd, const char *usage, int argc,
		     char **argv, int nargs)
{
	int ret = help_only(cmd, usage, argc, argv);

	if (ret)
		return ret;
	if (argc - optind < nargs)
		return usage_error(cmd, nargs == 1 ? "missing DEV" :
				   argc == optind ? "missing DEV and SIZE" :
				   "missing SIZE");
	if (argc - optind > nargs)
		return usage_error(cmd, "unexpected argument '%s'",
				   argv[optind + nargs]);
	return SBDCTL_EXIT_OK;
}

static int cmd_resize(int argc, char **argv)
{
	char item[SBDCTL_NAME_MAX + 1];
	uint64_t size;
	int ret;

	ret = disk_args("resize", usage_resize, argc, argv, 2);
	if (ret)
		return ret == SBDCTL_HELP_SHOWN ? SBDCTL_EXIT_OK : ret;
	ret = parse_size_opt("resize", argv[optind + 1], &size);
	if (!ret && !size)
		ret = usage_error("resize", "invalid size '%s'",
				  argv[optind + 1]);
	if (!ret)
		ret = resolve(argv[optind], item);
	if (!ret)
		ret = set_attr_u64(item, "size", size);
	return ret;
}

static int set_ro(int argc, char **argv, bool ro)
{
	const char *cmd = ro ? "ro" : "rw";
	char item[SBDCTL_NAME_MAX + 1];
	int ret;

	ret = disk_args(cmd, ro ? usage_ro : usage_rw, argc, argv, 1);
	if (ret)
		return ret == SBDCTL_HELP_SHOWN ? SBDCTL_EXIT_OK : ret;
	ret = resolve(argv[optind], item);
	if (ret)
		return ret;
	if (!item_has(item, "read_only"))
		return errorf(SBDCTL_EXIT_FAIL,
			      "the loaded sbd module cannot change read-only (no read_only attribute)");
	return set_attr(item, "read_only", ro ? "1" : "0");
}

static int cmd_ro(int argc, char **argv)
{
	return set_ro(argc, argv, true);
}

static int cmd_rw(int argc, char **argv)
{
	return set_ro(argc, argv, false);
}

static int cmd_remove(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	char item[SBDCTL_NAME_MAX + 1], path[PATH_MAX], dev[64];
	char uuid[SBDCTL_UUID_LEN + 1], nqn[256];
	bool force = false;
	int opt, ret;

	while ((opt = next_opt("remove", argc, argv, ":fh", longopts)) != -1) {
		if (opt == 'f') {
			force = true;
			continue;
		}
		if (opt != 'h')
			return SBDCTL_EXIT_USAGE;
		fputs(usage_remove, stdout);
		return SBDCTL_EXIT_OK;
	}
	if (argc - optind < 1)
		return usage_error("remove", "missing DEV");
	if (argc - optind > 1)
		return usage_error("remove", "unexpected argument '%s'",
				   argv[optind + 1]);
	ret = resolve(argv[optind], item);
	if (ret)
		return ret;
	item_path(path, item, "device");
	ret = read_file(path, dev, sizeof(dev));
	if (ret)
		return errorf(SBDCTL_EXIT_FAIL, "%s: %s", path, strerror(-ret));
	/* A disk served over NVMe/TCP goes only on purpose, unexported. */
	item_path(path, item, "uuid");
	read_uuid(path, uuid);
	if (dev[0] && export_exists(uuid, nqn, sizeof(nqn))) {
		if (!force)
			return errorf(SBDCTL_EXIT_FAIL,
				      "%s is exported as %s: sbdctl unexport it first, or remove --force",
				      argv[optind], nqn);
		ret = export_remove(uuid, argv[optind]);
		if (ret)
			return ret;
	}
	if (dev[0]) {
		ret = set_attr(item, "power", "0");
		if (ret)
			return ret;
	}
	item_path(path, item, NULL);
	if (rmdir(path))
		return errorf(SBDCTL_EXIT_FAIL, "cannot remove '%s': %s", item,
			      strerror(errno));
	return SBDCTL_EXIT_OK;
}

/* ---- crash testing --------------------------------------------------- */

/* The item of DEV, which must have attr (the module may be older). */
static int crash_resolve(const char *arg, const char *attr, char *item)
{
	int ret = resolve(arg, item);

	if (!ret && !item_has(item, attr))
		ret = errorf(SBDCTL_EXIT_FAIL,
			     "the loaded sbd module has no crash testing (no %s attribute)",
			     attr);
	return ret;
}

static int cmd_snapshot(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "log-limit", required_argument, NULL, 'l' },
		{ "log-full-fail", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	char item[SBDCTL_NAME_MAX + 1];
	bool limit_set = false, fail = false;
	uint64_t limit = 0;
	int opt, ret;

	while ((opt = next_opt("snapshot", argc, argv, ":l:fh", longopts)) != -1) {
		switch (opt) {
		case 'l':
			ret = parse_size_opt("snapshot", optarg, &limit);
			if (ret)
				return ret;
			limit_set = true;
			break;
		case 'f':
			fail = true;
			break;
		case 'h':
			fputs(usage_snapshot, stdout);
			return SBDCTL_EXIT_OK;
		default:
			return SBDCTL_EXIT_USAGE;
		}
	}
	if (argc - optind != 1)
		return usage_error("snapshot", argc == optind ? "missing DEV" :
				   "unexpected argument '%s'", argv[optind + 1]);
	ret = crash_resolve(argv[optind], "snapshot", item);
	if (!ret && limit_set)
		ret = set_attr_u64(item, "log_limit", limit);
	if (!ret && (fail || limit_set))
		ret = set_attr(item, "log_full_fail", fail ? "1" : "0");
	if (!ret)
		ret = set_attr(item, "snapshot", "1");
	return ret;
}

static int cmd_restore(int argc, char **argv)
{
	char item[SBDCTL_NAME_MAX + 1];
	int ret;

	ret = disk_args("restore", usage_restore, argc, argv, 1);
	if (ret)
		return ret == SBDCTL_HELP_SHOWN ? SBDCTL_EXIT_OK : ret;
	ret = crash_resolve(argv[optind], "restore", item);
	if (!ret)
		ret = set_attr(item, "restore", "1");
	return ret;
}

static int cmd_mark(int argc, char **argv)
{
	char item[SBDCTL_NAME_MAX + 1];
	const char *label;
	int ret;

	ret = help_only("mark", usage_mark, argc, argv);
	if (ret)
		return ret == SBDCTL_HELP_SHOWN ? SBDCTL_EXIT_OK : ret;
	if (argc - optind != 2)
		return usage_error("mark", argc == optind ? "missing DEV and LABEL" :
				   argc - optind == 1 ? "missing LABEL" :
				   "unexpected argument '%s'", argv[optind + 2]);
	label = argv[optind + 1];
	if (!*label || strlen(label) > 63 || strchr(label, '\n'))
		return usage_error("mark", "invalid label '%s': 1 to 63 printable characters",
				   label);
	ret = crash_resolve(argv[optind], "mark", item);
	if (!ret)
		ret = set_attr(item, "mark", label);
	return ret;
}

/* Reads the whole log attribute; NULL after saying why. */
char *read_log(const char *item, int *ret)
{
	char path[PATH_MAX], *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t n;
	int fd;

	item_path(path, item, "log");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*ret = errorf(SBDCTL_EXIT_FAIL, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? 2 * cap : 65536;
			buf = xrealloc(buf, cap);
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	if (n < 0) {
		*ret = errorf(SBDCTL_EXIT_FAIL, "%s: %s", path, strerror(errno));
		free(buf);
		buf = NULL;
	}
	close(fd);
	if (buf)
		buf[len] = '\0';
	return buf;
}

/* The log's text as JSON: its lines are "KEY VALUE KEY VALUE ..." */
static void print_log_json(char *text)
{
	bool in_epoch = false, first_mark = false;
	char *line, *save = NULL;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long long a, b, c, d, e, f, g;
		char lab[256];
		int off = 0;

		if (!strcmp(line, "log none")) {
			puts("null");
			return;
		}
		if (sscanf(line, "log entries %llu epochs %llu bytes %llu limit %llu full %llu dropped %llu stopped %llu",
			   &a, &b, &c, &d, &e, &f, &g) == 7) {
			printf("{\"entries\": %llu, \"epochs\": %llu, \"bytes\": %llu, \"limit\": %llu, \"full\": %s, \"dropped\": %llu, \"stopped\": %s, \"epoch-list\": [",
			       a, b, c, d, e ? "true" : "false", f,
			       g ? "true" : "false");
		} else if (sscanf(line, "epoch %llu first %llu count %llu writes %llu fua %llu flushed %llu",
				  &a, &b, &c, &d, &e, &f) == 6) {
			printf("%s\n  {\"epoch\": %llu, \"first\": %llu, \"count\": %llu, \"writes\": %llu, \"fua\": %llu, \"flushed\": %s, \"marks\": [",
			       in_epoch ? "]}," : "", a, b, c, d, e,
			       f ? "true" : "false");
			in_epoch = true;
			first_mark = true;
		} else if (sscanf(line, "mark %llu epoch %llu after %llu %n",
				  &a, &b, &c, &off) == 3) {
			json_escape(line + off, lab, sizeof(lab));
			printf("%s{\"entry\": %llu, \"after\": %llu, \"label\": %s}",
			       first_mark ? "" : ", ", a, c, lab);
			first_mark = false;
		}
	}
	printf("%s]}\n", in_epoch ? "]}\n" : "");
}

static int cmd_log(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	char item[SBDCTL_NAME_MAX + 1], *text;
	bool json = false;
	int opt, ret = 0;

	while ((opt = next_opt("log", argc, argv, ":Jh", longopts)) != -1) {
		switch (opt) {
		case 'J':
			json = true;
			break;
		case 'h':
			fputs(usage_log, stdout);
			return SBDCTL_EXIT_OK;
		default:
			return SBDCTL_EXIT_USAGE;
		}
	}
	if (argc - optind != 1)
		return usage_error("log", argc == optind ? "missing DEV" :
				   "unexpected argument '%s'", argv[optind + 1]);
	ret = crash_resolve(argv[optind], "log", item);
	if (ret)
		return ret;
	text = read_log(item, &ret);
	if (!text)
		return ret;
	if (json)
		print_log_json(text);
	else
		fputs(text, stdout);
	free(text);
	return SBDCTL_EXIT_OK;
}

static int cmd_crash_image(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "epoch", required_argument, NULL, 'e' },
		{ "state", required_argument, NULL, 'k' },
		{ "name", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	char src[SBDCTL_NAME_MAX + 1], name[SBDCTL_NAME_MAX + 1] = "";
	char path[PATH_MAX], val[600], dev[64], mark[128], jmark[300];
	uint64_t epoch = 0, state = 0, writes = 0;
	bool has_epoch = false, has_state = false, json = false, powered = false;
	sigset_t old;
	int opt, ret, err;

	while ((opt = next_opt("crash-image", argc, argv, ":e:k:n:Jh",
			       longopts)) != -1) {
		switch (opt) {
		case 'e':
		case 'k':
			if (parse_uint(optarg, UINT64_MAX,
				       opt == 'e' ? &epoch : &state))
				return usage_error("crash-image", "invalid %s '%s'",
						   opt == 'e' ? "epoch" : "state",
						   optarg);
			*(opt == 'e' ? &has_epoch : &has_state) = true;
			break;
		case 'n':
			if (!valid_disk_name(optarg))
				return usage_error("crash-image", "invalid name '%s'",
						   optarg);
			strcpy(name, optarg);
			break;
		case 'J':
			json = true;
			break;
		case 'h':
			fputs(usage_crash_image, stdout);
			return SBDCTL_EXIT_OK;
		default:
			return SBDCTL_EXIT_USAGE;
		}
	}
	if (argc - optind != 1)
		return usage_error("crash-image", argc == optind ? "missing DEV" :
				   "unexpected argument '%s'", argv[optind + 1]);
	if (!has_epoch || !has_state)
		return usage_error("crash-image", "missing --%s",
				   has_epoch ? "state" : "epoch");
	ret = crash_resolve(argv[optind], "crash_image", src);
	if (ret)
		return ret;

	/* As create: a ^C leaves no half-made disk. */
	hold_signals(&old);
	ret = make_item(name, name[0]);
	if (ret)
		goto out;
	snprintf(val, sizeof(val), "%s %llu %llu", src,
		 (unsigned long long)epoch, (unsigned long long)state);
	ret = set_attr(name, "crash_image", val);
	if (!ret) {
		ret = set_attr(name, "power", "1");
		powered = !ret;
	}
	if (!ret) {
		item_path(path, name, "device");
		err = read_file(path, dev, sizeof(dev));
		if (!err) {
			item_path(path, name, "crash_mark");
			err = read_file(path, mark, sizeof(mark));
		}
		if (!err) {
			item_path(path, name, "crash_image");
			err = read_file(path, val, sizeof(val));
		}
		if (err)
			ret = errorf(SBDCTL_EXIT_FAIL, "%s: %s", path,
				     strerror(-err));
		else if (sbd_index(dev) < 0)
			ret = errorf(SBDCTL_EXIT_FAIL, "power=1 gave no device");
	}
	if (ret) {
		undo_create(name, powered);
		goto out;
	}
	/* "SOURCE EPOCH STATE N" */
	sscanf(val, "%*s %*u %*u %llu", (unsigned long long *)&writes);
	if (json) {
		char jname[600], jsrc[600];

		json_escape(name, jname, sizeof(jname));
		json_escape(src, jsrc, sizeof(jsrc));
		if (mark[0])
			json_escape(mark, jmark, sizeof(jmark));
		printf("{\"device\": \"%s/%s\", \"name\": %s, \"source\": %s, \"epoch\": %llu, \"state\": %llu, \"writes\": %llu, \"mark\": %s}\n",
		       dev_dir, dev, jname, jsrc, (unsigned long long)epoch,
		       (unsigned long long)state, (unsigned long long)writes,
		       mark[0] ? jmark : "null");
	} else {
		printf("%s/%s\n", dev_dir, dev);
	}
out:
	fflush(stdout);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

/* ---- every knob of a disk: knobs.c -------------------------------- */

/* Their option tables are here, where scripts/check-man.sh reads them. */
static int cmd_show(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};

	return knobs_show(argc, argv, longopts);
}

static int cmd_cut(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "keep", required_argument, NULL, 'k' },
		{ "seed", required_argument, NULL, 's' },
		{ "versions", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};

	return knobs_cut(argc, argv, longopts);
}

static int cmd_fail(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "clear", no_argument, NULL, 'c' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};

	return knobs_fail(argc, argv, longopts);
}

/* ---- main ---------------------------------------------------------- */

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "create", cmd_create },
	{ "list", cmd_list },
	{ "resize", cmd_resize },
	{ "ro", cmd_ro },
	{ "rw", cmd_rw },
	{ "remove", cmd_remove },
	{ "show", cmd_show },
	{ "set", cmd_set },
	{ "power", cmd_power },
	{ "cut", cmd_cut },
	{ "fail", cmd_fail },
	{ "snapshot", cmd_snapshot },
	{ "restore", cmd_restore },
	{ "mark", cmd_mark },
	{ "log", cmd_log },
	{ "crash-image", cmd_crash_image },
	{ "crash-test", cmd_crash_test },
	{ "export", cmd_export },
	{ "unexport", cmd_unexport },
	{ "apply", cmd_apply },
};

/* An environment override of a root, without trailing slashes. */
static int set_root(char *root, const char *env, const char *def)
{
	const char *v = getenv(env);
	size_t n;

	if (!v || !*v)
		v = def;
	n = strlen(v);
	if (n > ROOT_MAX)
		return errorf(SBDCTL_EXIT_USAGE, "%s is too long", env);
	memcpy(root, v, n + 1);
	while (n > 1 && root[n - 1] == '/')
		root[--n] = '\0';
	return SBDCTL_EXIT_OK;
}

static int run(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;
	size_t i;
	int ret;

	if (!cmd) {
		fputs(usage_main, stderr);
		return SBDCTL_EXIT_USAGE;
	}
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		fputs(usage_main, stdout);
		return SBDCTL_EXIT_OK;
	}
	if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
		puts("sbdctl " SBDCTL_VERSION);
		return SBDCTL_EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(cmd, commands[i].name))
			break;
	if (i == ARRAY_SIZE(commands))
		return usage_error(NULL, cmd[0] == '-' ? "option '%s' is unknown" :
				   "unknown command '%s'", cmd);
	ret = set_root(cfs_root, "SBDCTL_CONFIGFS", "/sys/kernel/config/sbd");
	if (!ret)
		ret = set_root(sys_root, "SBDCTL_SYSFS", "/sys");
	if (!ret)
		ret = set_root(dev_dir, "SBDCTL_DEV", "/dev");
	if (!ret)
		ret = commands[i].fn(argc - 1, argv + 1);
	return ret;
}

int main(int argc, char **argv)
{
	int ret = run(argc, argv);
	/* what was printed must have got out: a full disk is an error */
	int err = fflush(stdout) ? errno : ferror(stdout) ? EIO : 0;

	if (err) {
		errorf(0, "write error: %s", strerror(err));
		if (!ret)
			ret = SBDCTL_EXIT_FAIL;
	}
	return ret;
}
