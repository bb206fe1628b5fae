/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sbd: the simple block device, a sparse RAM disk on blk-mq.
 *
 * Shared declarations of the driver's parts: the module (sbd_main.c), the
 * disk lifecycle (sbd_disk.c), the I/O path (sbd_io.c) and the backing
 * store (sbd_store.c).
 */
#ifndef SBD_H
#define SBD_H

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/types.h>
#include <linux/xarray.h>

#define SBD_NAME		"sbd"

/* Limits the module parameters are checked against. */
#define SBD_MAX_DEVICES		256
#define SBD_MAX_PART		255	/* DISK_MAX_PARTS minors, less the disk */
#define SBD_MIN_BLOCK_SIZE	SECTOR_SIZE
#define SBD_MAX_BLOCK_SIZE	4096

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

/* What a disk is made of; fixed once the disk exists. */
struct sbd_config {
	u64			size;		/* bytes */
	unsigned int		block_size;	/* logical block size */
	unsigned int		nr_hw_queues;
	unsigned int		queue_depth;
};

struct sbd_dev {
	int			index;
	struct sbd_config	config;
	struct gendisk		*disk;
	struct blk_mq_tag_set	tag_set;
	struct sbd_store	store;
	struct sbd_stats __percpu *stats;
	struct list_head	list;
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
struct sbd_dev *sbd_dev_create(int index, const struct sbd_config *config);
void sbd_dev_destroy(struct sbd_dev *dev);
void sbd_fill_geometry(u64 nr_sectors, struct hd_geometry *geo);

/* sbd_sysfs.c */
extern const struct attribute_group *sbd_disk_groups[];

/* sbd_io.c */
extern const struct blk_mq_ops sbd_mq_ops;

#endif /* SBD_H */
