/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the commands of sbdctl share: sbdctl.c (the disks), knobs.c (every
 * attribute of one disk) and export.c (serving them over NVMe/TCP).
 * util.h has the pure helpers.
 */
#ifndef SBDCTL_H
#define SBDCTL_H

#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* The roots are at most this long, so every path made from them fits. */
#define ROOT_MAX	1024
/* The longest value sbdctl writes to an attribute (one line). */
#define WRITE_VALUE_MAX	255

extern char cfs_root[ROOT_MAX + 1];	/* the sbd configfs subsystem */
extern char sys_root[ROOT_MAX + 1];	/* sysfs */
extern char dev_dir[ROOT_MAX + 1];	/* device nodes */

/* "sbdctl: MESSAGE" on stderr; returns code. */
int __attribute__((format(printf, 2, 3))) errorf(int code, const char *fmt, ...);
/* The same, pointing at cmd's --help; returns SBDCTL_EXIT_USAGE. */
int __attribute__((format(printf, 2, 3)))
usage_error(const char *cmd, const char *fmt, ...);
/* realloc that exits on failure (before anything was changed). */
void *xrealloc(void *p, size_t n);

bool is_dir(const char *path);
/* A small file without its trailing newline: 0 or -errno. */
int read_file(const char *path, char *buf, size_t size);
/* A uuid attribute, or "" where there is none. */
void read_uuid(const char *path, char uuid[SBDCTL_UUID_LEN + 1]);
/* The path of attribute attr (NULL: the item itself) of an sbd item. */
void item_path(char *buf, const char *item, const char *attr);
/* Writes "val\n" to a sysfs, configfs or nvmet file: 0 or -errno. */
int write_path(const char *path, const char *val);
/* Writes "val\n" to attribute attr of an sbd item: 0 or -errno. */
int write_attr(const char *item, const char *attr, const char *val);
/* Reads attribute attr of an sbd item: 0 or -errno. */
int read_attr(const char *item, const char *attr, char *buf, size_t size);
/* The device of item: the N of sbdN, -1 while powered off. */
int item_index(const char *item);
/* 0, or SBDCTL_EXIT_NOMOD with a message when sbd is not loaded. */
int check_module(void);
/* 0, or SBDCTL_EXIT_NOMOD with a message when configfs has no sbd. */
int check_configfs(void);
/* getopt_long with sbdctl's usage errors: the option, -1, or -2. */
int next_opt(const char *cmd, int argc, char **argv,
	     const char *shortopts, const struct option *longopts);
/* A decimal attribute: 0, -errno, or -EINVAL when it is not one. */
int read_u64(const char *path, uint64_t *v);
/* Whether the item has attribute attr ("features", else its file). */
bool item_has(const char *item, const char *attr);
/* write_attr that says what failed ("ATTR=VALUE: error"): an exit code. */
int set_attr(const char *item, const char *attr, const char *val);
/* set_attr() of a decimal number. */
int set_attr_u64(const char *item, const char *attr, uint64_t v);
/* mkdir of a new item: name (given), or the first free diskN into name. */
int make_item(char *name, bool given);
/*
 * Whether udev made the stable name of disk sbdN, DEVDIR/sbd/by-name/NAME,
 * and it leads there: the link in buf.
 */
bool by_name_link(const char *name, int index, char *buf, size_t len);
/* Powers off (if powered) and removes an item create was making. */
void undo_create(const char *name, bool powered);
/*
 * The rank of attr among those create sets, in the order it sets them (the
 * block size before the size, the queue mode before the queues); the
 * others rank last, NR_CREATE_ORDER.
 */
#define NR_CREATE_ORDER	10
int create_order(const char *attr);
/* s as a JSON string, quoted, on stdout. */
void print_json_string(const char *s);
/* help_only(): the options of a command that has only --help. */
#define SBDCTL_HELP_SHOWN	(-1)
int help_only(const char *cmd, const char *usage, int argc, char **argv);
/* Holds ^C and friends until sigprocmask(SIG_SETMASK, old) restores them. */
void hold_signals(sigset_t *old);
/*
 * The disk DEV names: its configfs item in item ("" for a disk of the
 * module parameters) and, when DEV named its device, its number in *index
 * (else -1).  0, or an exit code after the message.
 */
int lookup_disk(const char *arg, char *item, int *index);
/* The same, refusing a disk of the module parameters (exit 1). */
int resolve(const char *arg, char *item);

/*
 * knobs.c: show, set, power, cut, fail.  The option tables of show, cut
 * and fail are sbdctl.c's, with the others (check-man.sh reads them there).
 */
int knobs_show(int argc, char **argv, const struct option *longopts);
int cmd_set(int argc, char **argv);
int cmd_power(int argc, char **argv);
int knobs_cut(int argc, char **argv, const struct option *longopts);
int knobs_fail(int argc, char **argv, const struct option *longopts);
/*
 * An attribute set with a command of its own, or read-only (*ro): how to
 * get at it ("sbdctl power DEV on|off"); NULL for the others.
 */
const char *own_verb(const char *attr, bool *ro);

/* apply.c */
int cmd_apply(int argc, char **argv);

/* export.c */
/* The whole log attribute of item; NULL after saying why (*ret: code). */
char *read_log(const char *item, int *ret);

/* crashtest.c */
int cmd_crash_test(int argc, char **argv);

int cmd_export(int argc, char **argv);
int cmd_unexport(int argc, char **argv);
/*
 * Whether the disk with this uuid is exported (its subsystem exists in
 * nvmet); with nqn non-NULL, its NQN is written there.
 */
bool export_exists(const char *uuid, char *nqn, size_t len);
/* Unexports it: 0 or an exit code after a message. */
int export_remove(const char *uuid, const char *dev);

#endif
