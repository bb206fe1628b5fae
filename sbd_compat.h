/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sbd kernel compatibility: the only place that knows kernels differ.
 *
 * Each difference is a feature, SBD_HAVE_*, detected from the kernel's
 * headers: by the preprocessor where the kernel defines a macro, otherwise
 * by Kbuild, which greps the headers (see the Kbuild file).
 */
#ifndef SBD_COMPAT_H
#define SBD_COMPAT_H

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/hrtimer.h>

/* 6.11: queue features (BLK_FEAT_*) replace most queue flags. */
#ifdef BLK_FEAT_ROTATIONAL
#define SBD_HAVE_BLK_FEAT
#endif

/* Until 6.14 a tag set asked for request merging with a flag. */
#ifdef SBD_HAVE_SHOULD_MERGE
#define SBD_MQ_F_MERGE		BLK_MQ_F_SHOULD_MERGE
#else
#define SBD_MQ_F_MERGE		0
#endif

/*
 * 6.9: the queue limits are passed to blk_mq_alloc_disk() and
 * blk_alloc_disk().  Before that they were set one by one on the new
 * queue.  @set NULL: a bio-based disk, which must ask for REQ_NOWAIT
 * (which sbd_io.c honours); blk-mq gives it to every disk.  I/O statistics,
 * which blk-mq also turns on, stay off on a bio-based disk, as on brd's:
 * they cost a 4 KiB read some 2.5% more instructions, and queue/iostats
 * turns them on.
 */
static inline struct gendisk *sbd_compat_alloc_disk(struct blk_mq_tag_set *set,
						    struct queue_limits *lim,
						    bool write_cache,
						    void *queuedata)
{
	struct gendisk *disk;

#ifdef SBD_HAVE_BLK_FEAT
	if (write_cache)
		lim->features |= BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA;
	if (!set)
		lim->features |= BLK_FEAT_NOWAIT;
#endif
#ifdef SBD_HAVE_QUEUE_LIMITS
	disk = set ? blk_mq_alloc_disk(set, lim, queuedata) :
		     blk_alloc_disk(lim, NUMA_NO_NODE);
	if (IS_ERR(disk))
		return disk;
#else
	struct request_queue *q;

	disk = set ? blk_mq_alloc_disk(set, queuedata) :
		     blk_alloc_disk(NUMA_NO_NODE);
	if (IS_ERR_OR_NULL(disk))
		return disk ? disk : ERR_PTR(-ENOMEM);
	q = disk->queue;
	blk_queue_logical_block_size(q, lim->logical_block_size);
	blk_queue_physical_block_size(q, lim->physical_block_size);
	blk_queue_max_hw_sectors(q, lim->max_hw_sectors);
	blk_queue_max_segments(q, lim->max_segments);
	blk_queue_max_discard_sectors(q, lim->max_hw_discard_sectors);
	blk_queue_max_write_zeroes_sectors(q, lim->max_write_zeroes_sectors);
	q->limits.discard_granularity = lim->discard_granularity;
#endif
#ifndef SBD_HAVE_BLK_FEAT
	/* Without BLK_FEAT_ROTATIONAL a queue was rotational unless told. */
	blk_queue_flag_set(QUEUE_FLAG_NONROT, disk->queue);
	if (write_cache)
		blk_queue_write_cache(disk->queue, true, true);
	if (!set)
		blk_queue_flag_set(QUEUE_FLAG_NOWAIT, disk->queue);
#endif
	disk->queue->queuedata = queuedata;
	return disk;
}

/*
 * Freezing a queue waits until every request already issued to it has
 * completed and holds new ones back.  Since 6.14 it also enters a no-I/O
 * allocation scope, which the _nomemsave variants leave out; nothing sbd
 * does while frozen allocates.
 */
static inline void sbd_compat_freeze_queue(struct request_queue *q)
{
#ifdef SBD_HAVE_FREEZE_NOMEMSAVE
	blk_mq_freeze_queue_nomemsave(q);
#else
	blk_mq_freeze_queue(q);
#endif
}

static inline void sbd_compat_unfreeze_queue(struct request_queue *q)
{
#ifdef SBD_HAVE_FREEZE_NOMEMSAVE
	blk_mq_unfreeze_queue_nomemrestore(q);
#else
	blk_mq_unfreeze_queue(q);
#endif
}

/*
 * 6.2: call_rcu() may wait seconds before it starts a grace period (lazy
 * RCU); call_rcu_hurry() does not, so freed pages come back promptly.
 */
#ifdef SBD_HAVE_CALL_RCU_HURRY
#define sbd_compat_call_rcu_hurry	call_rcu_hurry
#else
#define sbd_compat_call_rcu_hurry	call_rcu
#endif

/* 7.x: ->init_request() is given the NUMA node as an int. */
#ifdef SBD_HAVE_INIT_REQUEST_INT_NODE
#define sbd_numa_node_t	int
#else
#define sbd_numa_node_t	unsigned int
#endif

/* 6.13: hrtimer_setup() sets the callback with the rest. */
static inline void sbd_compat_hrtimer_setup(struct hrtimer *timer,
					    enum hrtimer_restart (*fn)(struct hrtimer *),
					    clockid_t clock, enum hrtimer_mode mode)
{
#ifdef SBD_HAVE_HRTIMER_SETUP
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

/* 7.x: ->getgeo() is given the gendisk instead of a block_device. */
int sbd_getgeo(struct gendisk *disk, struct hd_geometry *geo);
#ifdef SBD_HAVE_GETGEO_GENDISK
#define sbd_compat_getgeo	sbd_getgeo
#else
static inline int sbd_compat_getgeo(struct block_device *bdev,
				    struct hd_geometry *geo)
{
	return sbd_getgeo(bdev->bd_disk, geo);
}
#endif

/* 6.13: a module namespace is a string literal (tests/kunit/sbd_kunit.c). */
#ifdef SBD_HAVE_NS_STRING
#define SBD_IMPORT_KUNIT_NS	MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING")
#else
#define SBD_IMPORT_KUNIT_NS	MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING)
#endif

#endif /* SBD_COMPAT_H */
