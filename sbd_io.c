// SPDX-License-Identifier: GPL-2.0
/*
 * sbd I/O path: one blk-mq queue_rq that copies between the request's
 * pages and the backing store, then completes the request before
 * returning.  The tag set is BLK_MQ_F_BLOCKING, so queue_rq may sleep to
 * allocate a page on the first write to it.
 *
 * A disk used as a test device may also keep what the write cache has not
 * made durable (sbd_cache.c), fail requests on purpose or complete them
 * late (sbd_fault.c); none of that is looked at when it is not enabled.
 */
#include <linux/bvec.h>
#include <linux/highmem.h>
#include <linux/rcupdate.h>

#include "sbd.h"
#include "sbd_compat.h"

static blk_status_t sbd_errno_to_status(int ret, struct request *rq)
{
	if (!ret)
		return BLK_STS_OK;
	/* REQ_NOWAIT: the submitter would rather retry than wait for memory. */
	if (ret == -ENOMEM && (rq->cmd_flags & REQ_NOWAIT))
		return BLK_STS_AGAIN;
	return BLK_STS_IOERR;
}

static blk_status_t sbd_rw(struct sbd_dev *dev, struct request *rq, gfp_t gfp)
{
	bool write = op_is_write(req_op(rq));
	u64 pos = (u64)blk_rq_pos(rq) << SECTOR_SHIFT;
	struct sbd_store_cursor cur;
	struct req_iterator iter;
	struct bio_vec bv;
	int ret = 0;

	/* One RCU section and one walk of the store for all the segments. */
	sbd_store_cursor_init(&cur, &dev->store);
	rcu_read_lock();
	rq_for_each_segment(bv, rq, iter) {
		void *buf = bvec_kmap_local(&bv);

		if (write)
			ret = sbd_store_write_at(&cur, pos, buf, bv.bv_len, gfp);
		else
			sbd_store_read_at(&cur, pos, buf, bv.bv_len);
		kunmap_local(buf);
		if (ret)
			goto out;	/* leaves both loops: bios, then segments */
		pos += bv.bv_len;
	}
out:
	rcu_read_unlock();
	return sbd_errno_to_status(ret, rq);
}

/*
 * With the write cache on, everything that changes the disk runs under the
 * cache lock: first the durable contents of the blocks it changes are kept
 * aside, then the change is made.
 */
static blk_status_t sbd_cached(struct sbd_dev *dev, struct request *rq,
			       gfp_t gfp)
{
	struct sbd_cache *cache = &dev->cache;
	u64 pos = (u64)blk_rq_pos(rq) << SECTOR_SHIFT;
	u64 len = blk_rq_bytes(rq);
	bool flush_honoured = !READ_ONCE(dev->config.ignore_flush);
	blk_status_t sts = BLK_STS_OK;
	int ret = 0;

	mutex_lock(&cache->lock);
	/* Power may have been cut while this request waited for the lock. */
	if (READ_ONCE(dev->fault.cut)) {
		mutex_unlock(&cache->lock);
		return BLK_STS_IOERR;
	}
	switch (req_op(rq)) {
	case REQ_OP_WRITE:
		ret = sbd_cache_dirty(dev, pos, len, gfp);
		if (!ret)
			sts = sbd_rw(dev, rq, gfp);
		if (!ret && !sts && (rq->cmd_flags & REQ_FUA) && flush_honoured)
			sbd_cache_clean(dev, pos, len);
		break;
	case REQ_OP_FLUSH:
		if (flush_honoured)
			sbd_cache_flush(dev);
		break;
	default:	/* discard, write-zeroes */
		ret = sbd_cache_dirty_present(dev, pos, len, gfp);
		if (!ret)
			sbd_store_zero(&dev->store, pos, len);
		break;
	}
	mutex_unlock(&cache->lock);
	return ret ? sbd_errno_to_status(ret, rq) : sts;
}

static blk_status_t sbd_do_request(struct sbd_dev *dev, struct request *rq)
{
	gfp_t gfp = (rq->cmd_flags & REQ_NOWAIT) ? GFP_NOWAIT : GFP_NOIO;
	enum req_op op = req_op(rq);
	bool cached = dev->config.cache && op != REQ_OP_READ;

	switch (op) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		sbd_count(dev, op == REQ_OP_READ ? SBD_STAT_READS : SBD_STAT_WRITES);
		if (op == REQ_OP_WRITE && (rq->cmd_flags & REQ_FUA))
			sbd_count(dev, SBD_STAT_FUA_WRITES);
		return cached ? sbd_cached(dev, rq, gfp) : sbd_rw(dev, rq, gfp);
	case REQ_OP_FLUSH:
		sbd_count(dev, SBD_STAT_FLUSHES);
		/* Without the write cache every completed write is in memory. */
		return cached ? sbd_cached(dev, rq, gfp) : BLK_STS_OK;
	case REQ_OP_DISCARD:
	case REQ_OP_WRITE_ZEROES:
		sbd_count(dev, op == REQ_OP_DISCARD ?
			  SBD_STAT_DISCARDS : SBD_STAT_WRITE_ZEROES);
		if (cached)
			return sbd_cached(dev, rq, gfp);
		sbd_store_zero(&dev->store, (u64)blk_rq_pos(rq) << SECTOR_SHIFT,
			       blk_rq_bytes(rq));
		return BLK_STS_OK;
	default:
		/* Secure erase, zone and driver-private operations. */
		return BLK_STS_NOTSUPP;
	}
}

static blk_status_t sbd_queue_rq(struct blk_mq_hw_ctx *hctx,
				 const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	struct sbd_dev *dev = rq->q->queuedata;
	sector_t end = blk_rq_pos(rq) + blk_rq_sectors(rq);
	bool faulty = READ_ONCE(dev->fault.active);
	blk_status_t sts = BLK_STS_OK;

	blk_mq_start_request(rq);

	/*
	 * The block layer checks this too; a shrink may race with it.  A
	 * flush has no sectors, and no meaningful position either.
	 */
	if (blk_rq_sectors(rq) && end > get_capacity(rq->q->disk))
		sts = BLK_STS_IOERR;
	/* Flushes are not writes; everything else that is fails. */
	else if (op_is_write(req_op(rq)) && READ_ONCE(dev->config.read_only))
		sts = BLK_STS_IOERR;
	else if (faulty)
		sts = sbd_fault_check(dev, rq);
	if (sts == BLK_STS_OK)
		sts = sbd_do_request(dev, rq);

	if (!faulty || !sbd_fault_delay(dev, rq, sts))
		blk_mq_end_request(rq, sts);
	return BLK_STS_OK;
}

/* Once per request the tag set allocates: hrtimer_start() does the rest. */
static int sbd_init_request(struct blk_mq_tag_set *set, struct request *rq,
			    unsigned int hctx_idx, sbd_numa_node_t numa_node)
{
	sbd_fault_init_cmd(blk_mq_rq_to_pdu(rq));
	return 0;
}

const struct blk_mq_ops sbd_mq_ops = {
	.queue_rq	= sbd_queue_rq,
	.init_request	= sbd_init_request,
};
