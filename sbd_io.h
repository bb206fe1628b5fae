/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sbd I/O core, shared by both front ends: the bio-based one (sbd_bio.c)
 * and the blk-mq one (sbd_mq.c).  Each describes its work as a struct
 * sbd_io (operation, flags, position, length, the bios with the data) and
 * hands it to sbd_io_submit() (the bio front end's common path goes
 * straight to sbd_io_run()), which checks it (capacity, read-only, error
 * rules) and executes it: one switch on the operation, a copy between the
 * bios' pages and the backing store (sbd_store.h), and the write cache's
 * bookkeeping.
 *
 * The core is inline, compiled into each front end's submit function, so
 * that a RAM disk's I/O goes no deeper than brd's: submit, then the store's
 * copy loop.  A disk used as a test device may also keep what the write
 * cache has not made durable (sbd_cache.c), log what it does (sbd_log.c)
 * or fail requests on purpose (sbd_fault.c): that path, and a read-only
 * disk's, is out of line, in sbd_io.c, and none of it is looked at on a
 * plain disk (dev->plain).
 */
#ifndef SBD_IO_H
#define SBD_IO_H

#include <linux/bio.h>
#include <linux/blk-mq.h>

#include "sbd.h"
#include "sbd_store.h"

/*
 * What a bio asks for.  Returned, not filled in: a struct declared without
 * an initializer is zeroed first in kernels built with INIT_STACK_ALL_ZERO,
 * in memory, even where it then lives in registers.
 */
static inline struct sbd_io sbd_io_from_bio(struct bio *bio)
{
	struct sbd_io io = {
		.op	= bio_op(bio),
		.flags	= bio->bi_opf,
		.pos	= (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT,
		.len	= bio->bi_iter.bi_size,
		.bio	= bio,	/* alone: bi_next is the block layer's */
	};

	/* A flush comes to a bio-based disk as an empty REQ_PREFLUSH write. */
	if ((io.flags & REQ_PREFLUSH) && !io.len) {
		io.op = REQ_OP_FLUSH;
		io.flags &= ~(REQ_PREFLUSH | REQ_FUA);
	}
	return io;
}

/*
 * What a request asks for.  blk-mq has already made a flush request of its
 * own of any REQ_PREFLUSH; that request carries REQ_PREFLUSH itself, which
 * here means nothing more than its op.  REQ_NOWAIT was blk-mq's to honour
 * (a tag, a request): the tag set is BLK_MQ_F_BLOCKING, ->queue_rq may
 * sleep, and a request that failed BLK_STS_AGAIN here would only be issued
 * again, polled ones by io_uring from another context.
 */
static inline struct sbd_io sbd_io_from_rq(struct request *rq)
{
	struct sbd_io io = {
		.op	= req_op(rq),
		.flags	= rq->cmd_flags & ~REQ_NOWAIT,
		.pos	= (u64)blk_rq_pos(rq) << SECTOR_SHIFT,
		.len	= blk_rq_bytes(rq),
		.chained = true,
		.bio	= rq->bio,
	};

	if (io.op == REQ_OP_FLUSH)
		io.flags &= ~(REQ_PREFLUSH | REQ_FUA);
	return io;
}

/* sbd_io.c: the core's out-of-line part, for a disk that is not plain. */
int sbd_io_lock(struct sbd_dev *dev, const struct sbd_io *io);
blk_status_t sbd_io_preflush(struct sbd_dev *dev, const struct sbd_io *io);
blk_status_t sbd_io_submit_test(struct sbd_dev *dev, struct sbd_io io);

static inline blk_status_t sbd_errno_to_status(int ret, const struct sbd_io *io)
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

/*
 * REQ_NOWAIT: allocations that fail rather than wait.  Asked for where
 * they are made, so that a read never works it out.
 */
static inline gfp_t sbd_io_gfp(const struct sbd_io *io)
{
	return (io->flags & REQ_NOWAIT) ? GFP_NOWAIT : GFP_NOIO;
}

/*
 * The one switch on the operation.  @test: the disk may have its write
 * cache or its write log on; when it is false, the compiler leaves out
 * everything they need, the lock too.
 */
static __always_inline blk_status_t sbd_execute(struct sbd_dev *dev,
						const struct sbd_io *io,
						bool test)
{
	bool cached = test && dev->config.cache && io->op != REQ_OP_READ;
	/* Changed only while the disk is quiesced. */
	bool logged = test && dev->log && io->op != REQ_OP_READ;
	bool honour_flush = test && !READ_ONCE(dev->config.ignore_flush);
	int ret;

	if (unlikely(cached || logged)) {
		ret = sbd_io_lock(dev, io);
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
		sbd_store_read_bio(&dev->store, io->bio, io->chained, io->pos);
		ret = 0;
		break;
	case REQ_OP_WRITE:
		sbd_count(dev, SBD_STAT_WRITES);
		if (io->flags & REQ_FUA)
			sbd_count(dev, SBD_STAT_FUA_WRITES);
		ret = cached ? sbd_cache_dirty(dev, io->pos, io->len,
					       sbd_io_gfp(io)) : 0;
		if (!ret)
			ret = sbd_store_write_bio(&dev->store, io->bio,
						  io->chained, io->pos,
						  sbd_io_gfp(io));
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
						       sbd_io_gfp(io)) : 0;
		if (!ret)
			ret = sbd_store_zero(&dev->store, io->pos, io->len,
					     sbd_io_gfp(io));
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

/*
 * Checks and executes @io.  A write with REQ_PREFLUSH is a flush, then the
 * write, as blk-mq would send them: if the flush fails, the write is not
 * done.  @test: the disk may not be plain (a test feature, read-only) or
 * @io be a REQ_PREFLUSH.
 */
static __always_inline blk_status_t sbd_io_run(struct sbd_dev *dev,
					       const struct sbd_io *io,
					       bool test)
{
	blk_status_t sts;

	if (test && (io->flags & REQ_PREFLUSH) && io->op != REQ_OP_FLUSH) {
		sts = sbd_io_preflush(dev, io);
		if (sts)
			return sts;
	}
	/*
	 * The block layer checks the end of the disk, but a bio that passed
	 * before a shrink may reach us after it.  On a plain disk it lands
	 * past the end, where nothing reads it and a grow clears it
	 * (sbd_dev_resize()); the write cache and the log must not keep it.
	 */
	if (test && io->len && io->pos + io->len >
	    ((u64)get_capacity(dev->disk) << SECTOR_SHIFT))
		return BLK_STS_IOERR;
	/*
	 * A flush is not a write; everything else that writes fails.  A
	 * read-only disk is not plain: only @test needs to look.
	 */
	if (test && op_is_write(io->op) && READ_ONCE(dev->config.read_only))
		return BLK_STS_IOERR;
	if (test && READ_ONCE(dev->fault.active)) {
		sts = sbd_fault_check(dev, io);
		if (sts)
			return sts;
	}
	return sbd_execute(dev, io, test);
}

/*
 * Returns how @io ended.  A plain disk (dev->plain: writable, no test
 * feature in use) runs the same checks and switch, compiled without the
 * tests of what it does not use.
 */
static __always_inline blk_status_t sbd_io_submit(struct sbd_dev *dev,
						  const struct sbd_io *io)
{
	if (likely(READ_ONCE(dev->plain) && !(io->flags & REQ_PREFLUSH)))
		return sbd_io_run(dev, io, false);
	return sbd_io_submit_test(dev, *io);
}

#endif /* SBD_IO_H */
