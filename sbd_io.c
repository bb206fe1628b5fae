// SPDX-License-Identifier: GPL-2.0
/*
 * sbd I/O core, shared by both front ends: the bio-based one (sbd_bio.c)
 * and the blk-mq one (sbd_mq.c).  Each describes its work as a struct
 * sbd_io (operation, flags, position, length, the bios with the data) and
 * hands it to sbd_io_submit(), which checks it (capacity, read-only, error
 * rules) and executes it: one switch on the operation, a copy between the
 * bios' pages and the backing store, and the write cache's bookkeeping.
 *
 * A disk used as a test device may also keep what the write cache has not
 * made durable (sbd_cache.c), log what it does (sbd_log.c) or fail
 * requests on purpose (sbd_fault.c); none of that is looked at when it is
 * not enabled.
 */
#include <linux/bio.h>
#include <linux/bvec.h>
#include <linux/highmem.h>
#include <linux/rcupdate.h>

#include "sbd.h"

static blk_status_t sbd_errno_to_status(int ret, const struct sbd_io *io)
{
	if (likely(!ret))
		return BLK_STS_OK;
	switch (ret) {
	case -EAGAIN:
		return BLK_STS_AGAIN;
	case -ENOMEM:
		/* REQ_NOWAIT: the submitter would rather retry than wait. */
		return (io->flags & REQ_NOWAIT) ? BLK_STS_AGAIN : BLK_STS_IOERR;
	case -EOPNOTSUPP:
		return BLK_STS_NOTSUPP;
	case -ENOSPC:
		return BLK_STS_NOSPC;
	default:
		return BLK_STS_IOERR;
	}
}

/* Copies between the bios' pages and the store, a page at most at a time. */
static int sbd_rw(struct sbd_dev *dev, const struct sbd_io *io, gfp_t gfp)
{
	bool write = io->op == REQ_OP_WRITE;
	u64 pos = io->pos;
	struct sbd_store_cursor cur;
	struct bvec_iter iter;
	struct bio_vec bv;
	struct bio *bio;
	int ret = 0;

	/* One RCU section and one walk of the store for all the segments. */
	sbd_store_cursor_init(&cur, &dev->store);
	rcu_read_lock();
	for (bio = io->bio; bio; bio = bio->bi_next) {
		bio_for_each_segment(bv, bio, iter) {
			void *buf = bvec_kmap_local(&bv);

			if (write)
				ret = sbd_store_write_at(&cur, pos, buf,
							 bv.bv_len, gfp);
			else
				sbd_store_read_at(&cur, pos, buf, bv.bv_len);
			kunmap_local(buf);
			if (ret)
				goto out;	/* leaves both loops */
			pos += bv.bv_len;
		}
	}
out:
	rcu_read_unlock();
	return ret;
}

/*
 * With the write cache on, everything that changes the disk runs under the
 * cache lock: first the durable contents of the blocks it changes are kept
 * aside, then the change is made.  So does everything a write log records,
 * in the order it is done.  REQ_NOWAIT does not wait for the lock.
 */
static int sbd_cache_lock(struct sbd_dev *dev, const struct sbd_io *io)
{
	if (io->flags & REQ_NOWAIT) {
		if (!mutex_trylock(&dev->cache.lock))
			return -EAGAIN;
	} else {
		mutex_lock(&dev->cache.lock);
	}
	/* Power may have been cut while this request waited for the lock. */
	if (READ_ONCE(dev->fault.cut)) {
		mutex_unlock(&dev->cache.lock);
		return -EIO;
	}
	return 0;
}

static blk_status_t sbd_execute(struct sbd_dev *dev, const struct sbd_io *io)
{
	gfp_t gfp = (io->flags & REQ_NOWAIT) ? GFP_NOWAIT : GFP_NOIO;
	bool cached = dev->config.cache && io->op != REQ_OP_READ;
	/* Changed only while the disk is quiesced. */
	bool logged = dev->log && io->op != REQ_OP_READ;
	bool honour_flush = !READ_ONCE(dev->config.ignore_flush);
	int ret;

	if (unlikely(cached || logged)) {
		ret = sbd_cache_lock(dev, io);
		if (!ret && logged) {
			ret = sbd_log_check(dev, io);
			if (ret)
				mutex_unlock(&dev->cache.lock);
		}
		if (ret)
			return sbd_errno_to_status(ret, io);
	}
	switch (io->op) {
	case REQ_OP_READ:
		sbd_count(dev, SBD_STAT_READS);
		ret = sbd_rw(dev, io, gfp);
		break;
	case REQ_OP_WRITE:
		sbd_count(dev, SBD_STAT_WRITES);
		if (io->flags & REQ_FUA)
			sbd_count(dev, SBD_STAT_FUA_WRITES);
		ret = cached ? sbd_cache_dirty(dev, io->pos, io->len, gfp) : 0;
		if (!ret)
			ret = sbd_rw(dev, io, gfp);
		/* FUA: durable once written, as if flushed on its own. */
		if (!ret && cached && (io->flags & REQ_FUA) && honour_flush)
			sbd_cache_clean(dev, io->pos, io->len);
		break;
	case REQ_OP_FLUSH:
		sbd_count(dev, SBD_STAT_FLUSHES);
		/* Without the write cache every completed write is durable. */
		if (cached && honour_flush)
			sbd_cache_flush(dev);
		ret = 0;
		break;
	case REQ_OP_DISCARD:
	case REQ_OP_WRITE_ZEROES:
		sbd_count(dev, io->op == REQ_OP_DISCARD ?
			  SBD_STAT_DISCARDS : SBD_STAT_WRITE_ZEROES);
		ret = cached ? sbd_cache_dirty_present(dev, io->pos, io->len,
						       gfp) : 0;
		if (!ret)
			ret = sbd_store_zero(&dev->store, io->pos, io->len,
					     gfp);
		break;
	default:
		/* Secure erase, zone and driver-private operations. */
		ret = -EOPNOTSUPP;
		break;
	}
	if (logged)
		sbd_log_io(dev, io, honour_flush, ret);
	if (cached || logged)
		mutex_unlock(&dev->cache.lock);
	return sbd_errno_to_status(ret, io);
}

/* The flush a write's REQ_PREFLUSH asks for, checked like any flush. */
static noinline blk_status_t sbd_io_preflush(struct sbd_dev *dev,
					     const struct sbd_io *io)
{
	const struct sbd_io flush = {
		.op	= REQ_OP_FLUSH,
		.flags	= io->flags & REQ_NOWAIT,
	};

	return sbd_io_submit(dev, &flush);
}

/*
 * Checks and executes @io; returns how it ended.  A write with REQ_PREFLUSH
 * is a flush, then the write, as blk-mq would send them: if the flush
 * fails, the write is not done.
 */
blk_status_t sbd_io_submit(struct sbd_dev *dev, const struct sbd_io *io)
{
	if (unlikely(io->flags & REQ_PREFLUSH) && io->op != REQ_OP_FLUSH) {
		blk_status_t sts = sbd_io_preflush(dev, io);

		if (sts)
			return sts;
	}
	/* The block layer checks this too; a shrink may race with it. */
	if (io->len && io->pos + io->len >
	    ((u64)get_capacity(dev->disk) << SECTOR_SHIFT))
		return BLK_STS_IOERR;
	/* A flush is not a write; everything else that writes fails. */
	if (op_is_write(io->op) && READ_ONCE(dev->config.read_only))
		return BLK_STS_IOERR;
	if (unlikely(READ_ONCE(dev->fault.active))) {
		blk_status_t sts = sbd_fault_check(dev, io);

		if (sts)
			return sts;
	}
	return sbd_execute(dev, io);
}
