// SPDX-License-Identifier: GPL-2.0
/*
 * sbd blk-mq front end, queue_mode=mq, after null_blk: requests come
 * through a tag set, with hw_queues hardware queues of queue_depth tags
 * and an I/O scheduler if one is chosen, to ->queue_rq, which does the
 * work and ends the request before returning, or leaves it to a timer
 * when a completion delay applies (the timer lives in the request's pdu).
 *
 * The tag set is BLK_MQ_F_BLOCKING: ->queue_rq may sleep to allocate a
 * page on the first write to it.
 */
#include <linux/blk-mq.h>

#include "sbd.h"
#include "sbd_compat.h"

static blk_status_t sbd_queue_rq(struct blk_mq_hw_ctx *hctx,
				 const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	struct sbd_dev *dev = rq->q->queuedata;
	struct sbd_io io;
	blk_status_t sts;

	blk_mq_start_request(rq);
	sbd_io_from_rq(&io, rq);
	sts = sbd_io_submit(dev, &io);
	if (!sbd_fault_delay(dev, &io, blk_mq_rq_to_pdu(rq), sts))
		blk_mq_end_request(rq, sts);
	return BLK_STS_OK;
}

static void sbd_mq_end_delayed(struct sbd_delayed *d)
{
	blk_mq_end_request(blk_mq_rq_from_pdu(d), d->status);
}

/* Once per request the tag set allocates: hrtimer_start() does the rest. */
static int sbd_init_request(struct blk_mq_tag_set *set, struct request *rq,
			    unsigned int hctx_idx, sbd_numa_node_t numa_node)
{
	sbd_delayed_init(blk_mq_rq_to_pdu(rq), set->driver_data,
			 sbd_mq_end_delayed);
	return 0;
}

static const struct blk_mq_ops sbd_mq_ops = {
	.queue_rq	= sbd_queue_rq,
	.init_request	= sbd_init_request,
};

int sbd_mq_alloc_tag_set(struct sbd_dev *dev)
{
	struct blk_mq_tag_set *set = &dev->tag_set;

	memset(set, 0, sizeof(*set));
	set->ops = &sbd_mq_ops;
	set->nr_hw_queues = dev->config.hw_queues;
	set->queue_depth = dev->config.queue_depth;
	set->numa_node = NUMA_NO_NODE;
	set->cmd_size = sizeof(struct sbd_delayed);
	/*
	 * No I/O scheduler unless asked: with one hardware queue the kernel
	 * would pick mq-deadline, which a RAM disk gains nothing from.
	 */
	set->flags = SBD_MQ_F_MERGE | BLK_MQ_F_BLOCKING |
		     BLK_MQ_F_NO_SCHED_BY_DEFAULT;
	set->driver_data = dev;
	return blk_mq_alloc_tag_set(set);
}
