// SPDX-License-Identifier: GPL-2.0
/*
 * sbd blk-mq front end, queue_mode=mq, after null_blk: requests come
 * through a tag set, with hw_queues hardware queues of queue_depth tags
 * and an I/O scheduler if one is chosen, to ->queue_rq, which does the
 * work and ends the request before returning, or leaves it to a timer
 * when a completion delay applies (the timer lives in the request's pdu).
 *
 * The tag set is BLK_MQ_F_BLOCKING: ->queue_rq may sleep to allocate a
 * page on the first write to it.  With poll_queues, the hardware queues
 * after the hw_queues others are poll queues, whose requests end when
 * polled (sbd_poll.c).
 */
#include <linux/blk-mq.h>

#include "sbd.h"
#include "sbd_io.h"
#include "sbd_compat.h"

/* Ends @rq now, or on a poll queue when its submitter polls. */
static void sbd_mq_end(struct request *rq, blk_status_t sts)
{
	if (rq->mq_hctx->type == HCTX_TYPE_POLL)
		sbd_poll_complete(rq, sts);
	else
		blk_mq_end_request(rq, sts);
}

static blk_status_t sbd_queue_rq(struct blk_mq_hw_ctx *hctx,
				 const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	struct sbd_dev *dev = rq->q->queuedata;
	struct sbd_io io = sbd_io_from_rq(rq);
	blk_status_t sts;

	blk_mq_start_request(rq);
	sts = sbd_io_submit(dev, &io);
	if (!sbd_fault_delay(dev, &io, blk_mq_rq_to_pdu(rq), &sts))
		sbd_mq_end(rq, sts);
	return BLK_STS_OK;
}

static void sbd_mq_end_delayed(struct sbd_delayed *d)
{
	sbd_mq_end(blk_mq_rq_from_pdu(d), d->status);
}

/* Only a poll queue has anything of sbd's: its list of done requests. */
static int sbd_init_hctx(struct blk_mq_hw_ctx *hctx, void *data,
			 unsigned int hctx_idx)
{
	hctx->driver_data = sbd_poll_queue_of(data, hctx_idx);
	return 0;
}

/*
 * Queues 0 to hw_queues - 1 serve the CPUs for everything but polled I/O,
 * the poll_queues after them polled I/O; no queues of their own for reads.
 */
static void sbd_map_queues(struct blk_mq_tag_set *set)
{
	struct sbd_dev *dev = set->driver_data;
	unsigned int type, offset = 0;

	for (type = 0; type < set->nr_maps; type++) {
		struct blk_mq_queue_map *map = &set->map[type];

		map->nr_queues = type == HCTX_TYPE_DEFAULT ? dev->config.hw_queues :
				 type == HCTX_TYPE_POLL ? dev->nr_poll_queues : 0;
		map->queue_offset = offset;
		offset += map->nr_queues;
		if (map->nr_queues)
			blk_mq_map_queues(map);
	}
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
	.init_hctx	= sbd_init_hctx,
	.map_queues	= sbd_map_queues,
	.poll		= sbd_poll,
};

int sbd_mq_alloc_tag_set(struct sbd_dev *dev)
{
	struct blk_mq_tag_set *set = &dev->tag_set;
	int ret;

	ret = sbd_poll_alloc(dev);
	if (ret)
		return ret;
	memset(set, 0, sizeof(*set));
	set->ops = &sbd_mq_ops;
	set->nr_hw_queues = dev->config.hw_queues + dev->nr_poll_queues;
	/* The default map only, or all three: default, read (none), poll. */
	set->nr_maps = dev->nr_poll_queues ? HCTX_MAX_TYPES : 1;
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
	ret = blk_mq_alloc_tag_set(set);
	if (ret)
		sbd_poll_free(dev);
	return ret;
}

void sbd_mq_free_tag_set(struct sbd_dev *dev)
{
	blk_mq_free_tag_set(&dev->tag_set);
	sbd_poll_free(dev);
}
