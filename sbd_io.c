// SPDX-License-Identifier: GPL-2.0
/*
 * sbd I/O path: one blk-mq queue_rq that copies between the request's
 * pages and the backing store, then completes the request before
 * returning.  The tag set is BLK_MQ_F_BLOCKING, so queue_rq may sleep to
 * allocate a page on the first write to it.
 */
#include <linux/bvec.h>
#include <linux/highmem.h>

#include "sbd.h"

static blk_status_t sbd_rw(struct sbd_dev *dev, struct request *rq)
{
	bool write = op_is_write(req_op(rq));
	/* REQ_NOWAIT: the submitter would rather retry than wait for memory. */
	gfp_t gfp = (rq->cmd_flags & REQ_NOWAIT) ? GFP_NOWAIT : GFP_NOIO;
	u64 pos = (u64)blk_rq_pos(rq) << SECTOR_SHIFT;
	struct req_iterator iter;
	struct bio_vec bv;

	rq_for_each_segment(bv, rq, iter) {
		void *buf = bvec_kmap_local(&bv);
		int ret = 0;

		if (write)
			ret = sbd_store_write(&dev->store, pos, buf, bv.bv_len, gfp);
		else
			sbd_store_read(&dev->store, pos, buf, bv.bv_len);
		kunmap_local(buf);

		if (ret == -ENOMEM && (rq->cmd_flags & REQ_NOWAIT))
			return BLK_STS_AGAIN;
		if (ret)
			return BLK_STS_IOERR;
		pos += bv.bv_len;
	}
	return BLK_STS_OK;
}

static blk_status_t sbd_queue_rq(struct blk_mq_hw_ctx *hctx,
				 const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	struct sbd_dev *dev = rq->q->queuedata;
	sector_t end = blk_rq_pos(rq) + blk_rq_sectors(rq);
	blk_status_t sts = BLK_STS_OK;

	blk_mq_start_request(rq);

	/* The block layer checks this too; a shrink may race with it. */
	if (end > get_capacity(dev->disk)) {
		sts = BLK_STS_IOERR;
		goto out;
	}
	/* Flushes are not writes; everything else that is fails. */
	if (op_is_write(req_op(rq)) && READ_ONCE(dev->config.read_only)) {
		sts = BLK_STS_IOERR;
		goto out;
	}

	switch (req_op(rq)) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		sbd_count(dev, req_op(rq) == REQ_OP_READ ?
			  SBD_STAT_READS : SBD_STAT_WRITES);
		sts = sbd_rw(dev, rq);
		break;
	case REQ_OP_FLUSH:
		sbd_count(dev, SBD_STAT_FLUSHES);
		/* Nothing is cached: every completed write is already in memory. */
		break;
	case REQ_OP_DISCARD:
	case REQ_OP_WRITE_ZEROES:
		sbd_count(dev, req_op(rq) == REQ_OP_DISCARD ?
			  SBD_STAT_DISCARDS : SBD_STAT_WRITE_ZEROES);
		sbd_store_zero(&dev->store, (u64)blk_rq_pos(rq) << SECTOR_SHIFT,
			       blk_rq_bytes(rq));
		break;
	default:
		/* Secure erase, zone and driver-private operations. */
		sts = BLK_STS_NOTSUPP;
		break;
	}
out:
	blk_mq_end_request(rq, sts);
	return BLK_STS_OK;
}

const struct blk_mq_ops sbd_mq_ops = {
	.queue_rq	= sbd_queue_rq,
};
