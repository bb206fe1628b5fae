// SPDX-License-Identifier: GPL-2.0
/*
 * sbd bio front end, queue_mode=bio (the default), after brd: the block
 * layer hands each bio to ->submit_bio in the submitter's context, which
 * does the work and ends the bio before returning.  No request, tag or
 * dispatch in between, and nothing is plugged, which is why a RAM disk is
 * fastest this way.
 *
 * Only a delayed completion (latency_us, latency_jitter_us,
 * bandwidth_mbps) outlives ->submit_bio: the bio then waits on a timer of
 * its own, taken from a mempool before the disk changes, so a delayed bio
 * never fails for want of memory after its data was written.  The queue's
 * freeze does not wait for such a bio, fault.inflight counts it instead
 * (sbd_fault.c), and bounds how many may wait: a submitter beyond that
 * waits here, as it would for a tag.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/mempool.h>

#include "sbd.h"
#include "sbd_io.h"

struct sbd_bio_delayed {
	struct sbd_delayed	delayed;
	struct bio		*bio;
	bool			acct;		/* I/O accounting started */
	unsigned long		start;		/* ...at this time, in jiffies */
};

/* Enough for forward progress; more come from the slab while they can. */
#define SBD_BIO_POOL_MIN	16

static mempool_t *sbd_bio_pool;

int sbd_bio_init(void)
{
	sbd_bio_pool = mempool_create_kmalloc_pool(SBD_BIO_POOL_MIN,
						   sizeof(struct sbd_bio_delayed));
	return sbd_bio_pool ? 0 : -ENOMEM;
}

void sbd_bio_exit(void)
{
	mempool_destroy(sbd_bio_pool);
}

/*
 * /proc/diskstats counts data only (a flush moves none; blk-mq counts
 * flushes apart).  Decided once per bio: queue/iostats may change while a
 * delayed bio waits, and the end must match the start.
 */
static bool sbd_bio_acct(struct bio *bio)
{
	return bio_sectors(bio) &&
	       blk_queue_io_stat(bio->bi_bdev->bd_disk->queue);
}

static void sbd_bio_end(struct bio *bio, bool acct, unsigned long start,
			blk_status_t sts)
{
	if (acct)
		bio_end_io_acct(bio, start);
	bio->bi_status = sts;
	bio_endio(bio);
}

static void sbd_bio_end_delayed(struct sbd_delayed *d)
{
	struct sbd_bio_delayed *bd = container_of(d, struct sbd_bio_delayed,
						  delayed);

	sbd_bio_end(bd->bio, bd->acct, bd->start, d->status);
	mempool_free(bd, sbd_bio_pool);
}

/*
 * A bio that ends later (latency_us, latency_jitter_us, bandwidth_mbps): it
 * is executed now and ended by its timer.
 */
static void sbd_submit_bio_delayed(struct sbd_dev *dev, struct bio *bio)
{
	bool nowait = bio->bi_opf & REQ_NOWAIT;
	struct sbd_bio_delayed *bd = NULL;
	bool acct = sbd_bio_acct(bio);
	struct sbd_io io = sbd_io_from_bio(bio);
	unsigned long start = 0;
	blk_status_t sts;

	if (sbd_fault_room(dev, nowait))
		bd = mempool_alloc(sbd_bio_pool, nowait ? GFP_NOWAIT : GFP_NOIO);
	if (!bd) {
		bio_wouldblock_error(bio);
		return;
	}
	if (acct)
		start = bio_start_io_acct(bio);

	sts = sbd_io_submit(dev, &io);

	sbd_delayed_init(&bd->delayed, dev, sbd_bio_end_delayed);
	bd->bio = bio;
	bd->acct = acct;
	bd->start = start;
	if (sbd_fault_delay(dev, &io, &bd->delayed, &sts))
		return;		/* the timer ends it */
	mempool_free(bd, sbd_bio_pool);
	sbd_bio_end(bio, acct, start, sts);
}

/*
 * A bio on a disk that is not plain (read-only, or a test feature on), one
 * counted in /proc/diskstats or one that asks for a flush first.
 */
static noinline void sbd_submit_bio_slow(struct sbd_dev *dev, struct bio *bio)
{
	struct sbd_io io;
	unsigned long start = 0;
	bool acct;

	if (READ_ONCE(dev->fault.delays)) {
		sbd_submit_bio_delayed(dev, bio);
		return;
	}
	acct = sbd_bio_acct(bio);
	if (acct)
		start = bio_start_io_acct(bio);
	io = sbd_io_from_bio(bio);
	sbd_bio_end(bio, acct, start, sbd_io_submit(dev, &io));
}

/*
 * A plain disk's bio, as brd would do it: described, executed, ended.  A
 * bio comes with bi_status BLK_STS_OK; only an error changes it.
 */
static __always_inline void sbd_submit_bio_plain(struct sbd_dev *dev,
						 struct bio *bio)
{
	struct sbd_io io = sbd_io_from_bio(bio);
	blk_status_t sts = sbd_io_run(dev, &io, false);

	if (unlikely(sts))
		bio->bi_status = sts;
	bio_endio(bio);
}

void sbd_submit_bio(struct bio *bio)
{
	struct gendisk *disk = bio->bi_bdev->bd_disk;
	struct sbd_dev *dev = disk->private_data;

	/* Not plain, /proc/diskstats, or a flush: not here. */
	if (unlikely(!READ_ONCE(dev->plain) || blk_queue_io_stat(disk->queue) ||
		     (bio->bi_opf & REQ_PREFLUSH)))
		sbd_submit_bio_slow(dev, bio);
	else
		sbd_submit_bio_plain(dev, bio);
}
