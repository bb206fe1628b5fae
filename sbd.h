/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sbd: the simple block device, a sparse RAM disk on blk-mq.
 *
 * Shared declarations of the driver's parts: the module (sbd_main.c), the
 * disk lifecycle (sbd_disk.c), the I/O path (sbd_io.c), the backing store
 * (sbd_store.c), runtime disks (sbd_configfs.c) and sysfs (sbd_sysfs.c).
 */
#ifndef SBD_H
#define SBD_H

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/configfs.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/types.h>
#include <linux/xarray.h>

#define SBD_NAME		"sbd"

/* Limits the module parameters are checked against. */
#define SBD_MAX_DEVICES		256
#define SBD_MAX_PART		255	/* DISK_MAX_PARTS minors, less the disk */
#define SBD_MIN_BLOCK_SIZE	SECTOR_SIZE
#define SBD_MAX_BLOCK_SIZE	4096
#define SBD_MAX_PHYS_BLOCK_SIZE	65536
#define SBD_MAX_QUEUE_DEPTH	1024

/*
 * The largest disk: its size in bytes fits a loff_t and its page numbers
 * fit the store's pgoff_t index (the tighter limit on 32-bit kernels).
 */
#define SBD_MAX_BYTES		((u64)MAX_LFS_FILESIZE)

/* A RAM disk completes each request before queue_rq returns. */
#define SBD_QUEUE_DEPTH		128
/* Largest request, in 512-byte sectors: 1 MiB. */
#define SBD_MAX_HW_SECTORS	2048

/*
 * Backing store: the disk's pages, allocated on first write and kept in an
 * xarray indexed by page number.  Readers look pages up under RCU only;
 * writers insert with the xarray's own lock; discarded pages are freed
 * after an RCU grace period so that a concurrent reader never copies from
 * a freed page.
 */
struct sbd_store {
	struct xarray		pages;
	atomic_long_t		nr_pages;
};

void sbd_store_init(struct sbd_store *store);
void sbd_store_destroy(struct sbd_store *store);
int sbd_store_write(struct sbd_store *store, u64 pos, const void *buf,
		    unsigned int len, gfp_t gfp);
void sbd_store_read(struct sbd_store *store, u64 pos, void *buf,
		    unsigned int len);
void sbd_store_zero(struct sbd_store *store, u64 pos, u64 len);
void sbd_store_truncate(struct sbd_store *store, u64 size);

static inline unsigned long sbd_store_nr_pages(struct sbd_store *store)
{
	return atomic_long_read(&store->nr_pages);
}

/* Requests counted per disk, shown in /sys/block/sbdN/sbd/. */
enum sbd_stat {
	SBD_STAT_READS,
	SBD_STAT_WRITES,
	SBD_STAT_FLUSHES,
	SBD_STAT_DISCARDS,
	SBD_STAT_WRITE_ZEROES,
	SBD_STAT_NR
};

struct sbd_stats {
	u64			count[SBD_STAT_NR];
};

/*
 * What a disk is made of.  Runtime disks set these through configfs, one
 * attribute each, so they are all plain 64-bit numbers; only size and
 * read_only may change while the disk exists.
 */
struct sbd_config {
	u64			size;		/* bytes */
	u64			logical_block_size;
	u64			physical_block_size;
	u64			hw_queues;
	u64			queue_depth;
	u64			partitions;	/* at most max_part */
	u64			discard;	/* 0 or 1 */
	u64			read_only;	/* 0 or 1 */
};

/*
 * One disk.  The struct outlives its gendisk: a runtime disk keeps its data
 * while powered off, so the gendisk holds a reference and so does whoever
 * made the disk (the configfs item, or the module for parameter disks).
 */
struct sbd_dev {
	struct kref		ref;
	struct mutex		lock;		/* power, resize, config */
	struct sbd_config	config;
	int			index;		/* sbdN; valid while powered */
	struct gendisk		*disk;		/* NULL while powered off */
	struct blk_mq_tag_set	tag_set;
	struct sbd_store	store;
	struct sbd_stats __percpu *stats;
	struct list_head	list;		/* parameter disks only */
	struct config_group	group;		/* runtime disks only */
};

/* Counted per CPU, so the I/O path shares no cache line between CPUs. */
static inline void sbd_count(struct sbd_dev *dev, enum sbd_stat stat)
{
	this_cpu_inc(dev->stats->count[stat]);
}

u64 sbd_stat_read(struct sbd_dev *dev, enum sbd_stat stat);

/* sbd_main.c: the module's global state. */
extern int sbd_major;
extern unsigned int sbd_minors;

/* sbd_disk.c */
struct sbd_dev *sbd_dev_alloc(const struct sbd_config *config);
void sbd_dev_put(struct sbd_dev *dev);
int sbd_dev_power_on(struct sbd_dev *dev);
void sbd_dev_power_off(struct sbd_dev *dev);
int sbd_dev_resize(struct sbd_dev *dev, u64 size);
int sbd_dev_set_read_only(struct sbd_dev *dev, u64 read_only);
void sbd_fill_geometry(u64 nr_sectors, struct hd_geometry *geo);
const char *sbd_dev_name(struct sbd_dev *dev);

/* sbd_configfs.c */
int sbd_configfs_init(void);
void sbd_configfs_exit(void);

/* sbd_sysfs.c */
extern const struct attribute_group *sbd_disk_groups[];

/* sbd_io.c */
extern const struct blk_mq_ops sbd_mq_ops;

#endif /* SBD_H */
