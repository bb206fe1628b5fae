// SPDX-License-Identifier: GPL-2.0
/*
 * sbd snapshots: a baseline of a disk's contents to come back to, cheaply
 * and many times over (mkfs and populate once, snapshot, then run a trial,
 * restore, run the next).
 *
 * Taking a snapshot moves the store's pages into a new, frozen layer
 * (struct sbd_layer) below the store, which starts empty: nothing is
 * copied.  From then on the store holds only what was written since, and
 * a write to a page only the layer has copies it up first (sbd_store.c).
 * Restoring gives back the store's own pages, so it costs what was written
 * since the snapshot, not the size of the disk.  A new snapshot on top of
 * an old one adds a layer; crash images (sbd_log.c) share the layers of
 * the disk they were made from, hence the reference count.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include "sbd.h"

/* Frees a layer nothing refers to any more: no reader can be in it. */
static void sbd_layer_free(struct sbd_layer *layer)
{
	unsigned long idx;
	void *entry;

	xa_for_each(&layer->pages, idx, entry) {
		if (!xa_is_value(entry))
			__free_page(entry);
		cond_resched();
	}
	xa_destroy(&layer->pages);
	kfree(layer);
}

struct sbd_layer *sbd_layer_get(struct sbd_layer *layer)
{
	refcount_inc(&layer->ref);
	return layer;
}

/*
 * Drops a reference; the last one frees the layer, then drops its own
 * reference to the one below, in a loop: a stack of many snapshots must
 * not recurse.
 */
void sbd_layer_put(struct sbd_layer *layer)
{
	while (layer && refcount_dec_and_test(&layer->ref)) {
		struct sbd_layer *lower = layer->lower;

		sbd_layer_free(layer);
		layer = lower;
	}
}

/* An empty layer, allocated before the disk is quiesced. */
VISIBLE_IF_KUNIT struct sbd_layer *sbd_layer_alloc(void)
{
	struct sbd_layer *layer = kzalloc(sizeof(*layer), GFP_KERNEL);

	if (layer) {
		refcount_set(&layer->ref, 1);
		xa_init(&layer->pages);
	}
	return layer;
}
EXPORT_SYMBOL_IF_KUNIT(sbd_layer_alloc);

/*
 * Moves every entry of @store into @layer, which goes below it.  On
 * failure nothing has changed: the entries are stored in the layer first,
 * and only once all are there does the store let go of them.
 */
VISIBLE_IF_KUNIT int sbd_snap_freeze_store(struct sbd_store *store,
					   struct sbd_layer *layer)
{
	unsigned long idx;
	void *entry;

	/* The queue is frozen: no allocation here may wait on its I/O. */
	xa_for_each(&store->pages, idx, entry) {
		if (xa_err(xa_store(&layer->pages, idx, entry, GFP_NOIO))) {
			xa_destroy(&layer->pages);
			return -ENOMEM;
		}
		cond_resched();
	}
	layer->nr_pages = sbd_store_nr_pages(store);
	layer->lower = store->base;
	store->base = layer;
	xa_destroy(&store->pages);
	atomic_long_set(&store->nr_pages, 0);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(sbd_snap_freeze_store);

/*
 * Takes a snapshot of what the disk holds durably.  The write cache is
 * written out first, as a flush would: the snapshot is the state every
 * crash state of its log starts from.  With log_limit set, a new write log
 * starts from it.
 */
int sbd_snap_take(struct sbd_dev *dev)
{
	struct sbd_layer *layer;
	struct sbd_log *log = NULL;
	int ret = 0;

	lockdep_assert_held(&dev->lock);
	layer = sbd_layer_alloc();
	if (!layer)
		return -ENOMEM;
	if (dev->config.log_limit) {
		log = sbd_log_new(dev);
		if (!log) {
			kfree(layer);
			return -ENOMEM;
		}
	}
	sbd_dev_quiesce(dev);
	mutex_lock(&dev->cache.lock);
	sbd_cache_flush(dev);
	/* Nothing written since the last snapshot: it is this one too. */
	if (dev->store.base && xa_empty(&dev->store.pages)) {
		kfree(layer);
	} else if (sbd_snap_freeze_store(&dev->store, layer)) {
		kfree(layer);
		ret = -ENOMEM;
	}
	if (!ret) {
		if (log)
			log->base = sbd_layer_get(dev->store.base);
		swap(dev->log, log);
		sbd_dev_update_plain(dev);
		dev->restore_pages = 0;
	}
	mutex_unlock(&dev->cache.lock);
	sbd_dev_resume(dev);
	sbd_log_put(log);	/* the old one, or the unused new one */
	return ret;
}

/*
 * Brings the disk back to its snapshot: what the store holds of its own
 * goes, the layers below show again, and the log starts over.  Refused
 * while the disk is open: a mounted filesystem would not expect its disk
 * to change underneath it.
 */
int sbd_snap_restore(struct sbd_dev *dev)
{
	struct sbd_log *log = NULL;

	lockdep_assert_held(&dev->lock);
	if (!dev->store.base) {
		pr_warn("%s: restore is refused: the disk has no snapshot\n",
			sbd_dev_name(dev));
		return -EINVAL;
	}
	if (dev->disk && disk_openers(dev->disk)) {
		pr_warn("%s: restore is refused: the disk is open (mounted?)\n",
			sbd_dev_name(dev));
		return -EBUSY;
	}
	if (dev->log) {
		log = sbd_log_new(dev);
		if (!log)
			return -ENOMEM;
		log->base = sbd_layer_get(dev->store.base);
	}
	sbd_dev_quiesce(dev);
	mutex_lock(&dev->cache.lock);
	sbd_cache_flush(dev);
	dev->restore_pages = sbd_store_revert(&dev->store);
	swap(dev->log, log);
	sbd_dev_update_plain(dev);
	mutex_unlock(&dev->cache.lock);
	sbd_dev_resume(dev);
	sbd_log_put(log);
	return 0;
}
