/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the commands of sbdctl share: sbdctl.c (the disks) and export.c
 * (serving them over NVMe/TCP).  util.h has the pure helpers.
 */
#ifndef SBDCTL_H
#define SBDCTL_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/* The roots are at most this long, so every path made from them fits. */
#define ROOT_MAX	1024

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
/* Writes "val\n" to attribute attr of an sbd item: 0 or -errno. */
int write_attr(const char *item, const char *attr, const char *val);
/* 0, or SBDCTL_EXIT_NOMOD with a message when sbd is not loaded. */
int check_module(void);
/* getopt_long with sbdctl's usage errors: the option, -1, or -2. */
int next_opt(const char *cmd, int argc, char **argv,
	     const char *shortopts, const struct option *longopts);

/* export.c */
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
