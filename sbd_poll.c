// SPDX-License-Identifier: GPL-2.0
/*
 * sbd polled completion, for the poll queues of queue_mode=mq
 * (poll_queues > 0), after null_blk and NVMe: a request that blk-mq sends
 * to a poll queue (a bio with REQ_POLLED: io_uring IOPOLL, preadv2 and
 * pwritev2 with RWF_HIPRI) is executed in ->queue_rq like any other, but
 * is not ended there.  It waits on its queue's done list until the
 * submitter polls; ->poll ends what it finds, in a batch where the kernel
 * can.  A delayed one joins the list when its timer fires.
 *
 * Nobody polls a queue that is being frozen (bio_poll() cannot enter it),
 * so a power off, rmdir or shrink stops the poll queues: what waits is
 * ended at once, and until they start again nothing waits.
 */
#include <linux/blk-mq.h>
#include <linux/slab.h>

#include "sbd.h"

int sbd_poll_alloc(struct sbd_dev *dev)
{
	unsigned int i, n = dev->config.poll_queues;

	dev->poll_queues = kcalloc(n, sizeof(*dev->poll_queues), GFP_KERNEL);
	if (n && !dev->poll_queues)
		return -ENOMEM;
	dev->nr_poll_queues = n;
	for (i = 0; i < n; i++) {
		spin_lock_init(&dev->poll_queues[i].lock);
		INIT_LIST_HEAD(&dev->poll_queues[i].done);
	}
	return 0;
}

void sbd_poll_free(struct sbd_dev *dev)
{
	kfree(dev->poll_queues);
	dev->poll_queues = NULL;
	dev->nr_poll_queues = 0;
}

/* The poll queues are the hardware queues after the hw_queues others. */
struct sbd_poll_queue *sbd_poll_queue_of(struct sbd_dev *dev,
					 unsigned int hctx_idx)
{
	if (hctx_idx < dev->config.hw_queues)
		return NULL;
	return &dev->poll_queues[hctx_idx - dev->config.hw_queues];
}

/*
 * Ends @rq, executed with @sts, when its submitter polls; at once if the
 * queue is stopped.  From ->queue_rq or a delay's timer (hard interrupt).
 */
void sbd_poll_complete(struct request *rq, blk_status_t sts)
{
	struct sbd_poll_queue *pq = rq->mq_hctx->driver_data;
	struct sbd_delayed *d = blk_mq_rq_to_pdu(rq);
	unsigned long flags;

	spin_lock_irqsave(&pq->lock, flags);
	if (!pq->stopped) {
		d->status = sts;
		list_add_tail(&rq->queuelist, &pq->done);
		spin_unlock_irqrestore(&pq->lock, flags);
		return;
	}
	spin_unlock_irqrestore(&pq->lock, flags);
	blk_mq_end_request(rq, sts);
}

/* Ends every request on @list, in @iob's batch where it can go. */
static int sbd_poll_end_list(struct list_head *list, struct io_comp_batch *iob)
{
	struct request *rq, *next;
	int nr = 0;

	list_for_each_entry_safe(rq, next, list, queuelist) {
		struct sbd_delayed *d = blk_mq_rq_to_pdu(rq);
		blk_status_t sts = d->status;

		list_del_init(&rq->queuelist);
		/* A batch ends only requests that succeeded. */
		if (!blk_mq_add_to_batch(rq, iob, sts != BLK_STS_OK,
					 blk_mq_end_request_batch))
			blk_mq_end_request(rq, sts);
		nr++;
	}
	return nr;
}

/* ->poll: ends what is done on this queue; returns how many. */
int sbd_poll(struct blk_mq_hw_ctx *hctx, struct io_comp_batch *iob)
{
	struct sbd_poll_queue *pq = hctx->driver_data;
	struct sbd_dev *dev = hctx->queue->queuedata;
	LIST_HEAD(done);
	int nr;

	spin_lock_irq(&pq->lock);
	list_splice_init(&pq->done, &done);
	spin_unlock_irq(&pq->lock);
	nr = sbd_poll_end_list(&done, iob);
	if (nr)
		sbd_count_add(dev, SBD_STAT_POLLED, nr);
	return nr;
}

static void sbd_poll_set_stopped(struct sbd_dev *dev, bool stopped)
{
	unsigned int i;

	for (i = 0; i < dev->nr_poll_queues; i++) {
		struct sbd_poll_queue *pq = &dev->poll_queues[i];
		LIST_HEAD(done);

		spin_lock_irq(&pq->lock);
		pq->stopped = stopped;
		list_splice_init(&pq->done, &done);
		spin_unlock_irq(&pq->lock);
		sbd_poll_end_list(&done, NULL);
	}
}

/*
 * Before a freeze (power off, rmdir, shrink): ends what waits for a poll,
 * and from now on ends polled requests where they would have been listed,
 * in ->queue_rq or at the end of their delay.
 */
void sbd_poll_stop(struct sbd_dev *dev)
{
	sbd_poll_set_stopped(dev, true);
}

void sbd_poll_start(struct sbd_dev *dev)
{
	sbd_poll_set_stopped(dev, false);
}
