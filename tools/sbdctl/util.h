/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sbdctl: the pure pieces (no file system access), unit-tested on the host
 * by test_util.c: sizes parsed and printed, JSON strings, names and the
 * device arguments of the commands.
 */
#ifndef SBDCTL_UTIL_H
#define SBDCTL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exit codes; the contract scripts rely on (see README.md). */
enum {
	SBDCTL_EXIT_OK		= 0,
	SBDCTL_EXIT_FAIL	= 1,	/* the operation failed */
	SBDCTL_EXIT_USAGE	= 2,	/* bad option or value */
	SBDCTL_EXIT_NOMOD	= 3,	/* module not loaded, configfs missing */
	SBDCTL_EXIT_NODEV	= 4,	/* no such device */
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* A UUID as text: xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx. */
#define SBDCTL_UUID_LEN	36

/* Longest configfs item name sbdctl handles (NAME_MAX). */
#define SBDCTL_NAME_MAX	255

/*
 * "123", "4K", "4KiB", "4KB", "1g", "512B": a whole number of bytes with an
 * optional unit.  K M G T P and KiB MiB GiB TiB PiB are powers of 1024, KB
 * MB GB TB PB powers of 1000, B is bytes; letters in any case.  Returns 0,
 * -EINVAL for anything else (sign, fraction, space, junk, empty) or -ERANGE
 * when the value does not fit in 64 bits.
 */
int parse_size(const char *s, uint64_t *out);

/* A plain decimal number from 0 to max; 0, -EINVAL or -ERANGE. */
int parse_uint(const char *s, uint64_t max, uint64_t *out);

/*
 * The value of a sysfs or configfs attribute: decimal digits and at most
 * one trailing newline.  0, -EINVAL or -ERANGE.
 */
int parse_attr_u64(const char *buf, uint64_t *out);

/*
 * bytes as lsblk prints them: "512B", "64M", "1.5G": the largest binary
 * unit not above the value, one decimal rounded half up and dropped when
 * 0.  A value that rounds to 1024 of a unit is shown in the next one
 * ("1M", where lsblk prints "1024K").  buf gets at most len - 1 chars.
 */
void format_size(uint64_t bytes, char *buf, size_t len);

/*
 * Writes s as a JSON string, quotes included, into buf (at most len - 1
 * chars and a NUL) and returns the length of the whole escaped string, as
 * snprintf does.  Control characters and invalid UTF-8 bytes are escaped
 * (the latter as U+FFFD), valid UTF-8 is kept as it is.
 */
size_t json_escape(const char *s, char *buf, size_t len);

/*
 * How a disk queues its I/O, as its queue_mode attribute names it.  0 is
 * "not known" (a module without the attribute), so a zeroed entry has it.
 */
enum queue_mode {
	QUEUE_MODE_UNKNOWN,
	QUEUE_MODE_BIO,		/* "bio": bios handled as they are submitted */
	QUEUE_MODE_MQ,		/* "mq": blk-mq, hw_queues and queue_depth */
};

/*
 * "bio" or "mq", exactly (an attribute's trailing newline already gone):
 * the mode, else QUEUE_MODE_UNKNOWN.
 */
enum queue_mode parse_queue_mode(const char *s);

/* "bio", "mq", or NULL for QUEUE_MODE_UNKNOWN and anything else. */
const char *queue_mode_name(enum queue_mode mode);

/* Whether features (a line "a,b,c") lists the attribute name. */
bool features_has(const char *features, const char *name);

/*
 * s for a column of the table: spaces, control characters and backslashes
 * as \xHH, as lsblk does, so that every row splits into the same fields.
 * buf gets at most len - 1 chars and a NUL.
 */
void table_escape(const char *s, char *buf, size_t len);

/*
 * The name of a disk sbdctl creates: 1 to SBDCTL_NAME_MAX of A-Z a-z 0-9
 * . _ -, not starting with '.', and not "sbdN" (the names of the devices).
 */
bool valid_disk_name(const char *name);

/* The file name of an attribute: 1 to 64 (ATTR_NAME_MAX) of a-z 0-9 _. */
#define ATTR_NAME_MAX	64
bool valid_attr_name(const char *s, size_t len);

/* The N of a kernel disk name "sbdN" (no leading zero), else -1. */
int sbd_index(const char *name);

/* What a DEV argument names. */
enum dev_kind {
	DEV_INDEX,	/* the disk sbdN: index */
	DEV_NAME,	/* a configfs item: name */
	DEV_PARTITION,	/* sbdNpM: a partition, not a disk */
	DEV_INVALID,	/* cannot be an sbd disk */
};

struct dev_arg {
	enum dev_kind kind;
	int index;		/* DEV_INDEX, DEV_PARTITION: N of sbdN */
	const char *name;	/* DEV_NAME: points into the argument */
};

/* Where the udev rule (60-sbd.rules) links a named disk, under DEVDIR. */
#define SBD_BY_NAME	"sbd/by-name"

/*
 * Classifies arg: "sbdN" and "DEVDIR/sbdN" are the disk sbdN, "sbdNpM"
 * (or in DEVDIR) a partition, any other word without '/' and
 * "DEVDIR/sbd/by-name/NAME" a configfs name, and every other path
 * DEV_INVALID.  devdir may end in '/'.
 */
enum dev_kind parse_dev_arg(const char *arg, const char *devdir,
			    struct dev_arg *out);

/* The smallest N for which "diskN" is not among names[0..n-1]. */
unsigned int first_free_disk_name(const char *const *names, size_t n);

/* One line of `sbdctl list`. */
struct sbd_entry {
	int index;			/* N of sbdN, -1 when powered off */
	char name[SBDCTL_NAME_MAX + 1];	/* configfs item, "" if none */
	uint64_t size;			/* bytes */
	uint64_t lbs, pbs;		/* logical, physical block size */
	enum queue_mode mode;		/* QUEUE_MODE_UNKNOWN if not shown */
	uint64_t polls;			/* poll queues */
	bool has_polls;			/* polls known (the module shows them) */
	uint64_t mem;			/* bytes held */
	bool has_mem;			/* mem known (powered disks) */
	bool ro;
	char uuid[SBDCTL_UUID_LEN + 1];	/* the disk's identity, "" if not shown */
};

/* list order: devices by number, then the powered-off items by name. */
int entry_cmp(const void *a, const void *b);

#endif /* SBDCTL_UTIL_H */
