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

static void sbd_layer_release(struct kref *ref)
{
	struct sbd_layer *layer = container_of(ref, struct sbd_layer, ref);
	struct sbd_layer *lower = layer->lower;
	unsigned long idx;
	void *entry;

	/* No store or log refers to it: nothing can be reading its pages. */
	xa_for_each(&layer->pages, idx, entry) {
		if (!xa_is_value(entry))
			__free_page(entry);
		cond_resched();
	}
	xa_destroy(&layer->pages);
	kfree(layer);
	sbd_layer_put(lower);
}

void sbd_layer_put(struct sbd_layer *layer)
{
	if (layer)
		kref_put(&layer->ref, sbd_layer_release);
}

/*
 * Moves every entry of @store into a new layer.  On failure nothing has
 * changed: the entries are stored in the layer first, and only once all
 * are there does the store let go of them.
 */
VISIBLE_IF_KUNIT struct sbd_layer *sbd_snap_freeze_store(struct sbd_store *store)
{
	struct sbd_layer *layer;
	unsigned long idx;
	void *entry;

	layer = kzalloc(sizeof(*layer), GFP_KERNEL);
	if (!layer)
		return NULL;
	kref_init(&layer->ref);
	xa_init(&layer->pages);
	/* The queue is frozen: no allocation here may wait on its I/O. */
	xa_for_each(&store->pages, idx, entry) {
		if (xa_err(xa_store(&layer->pages, idx, entry, GFP_NOIO))) {
			xa_destroy(&layer->pages);
			kfree(layer);
			return NULL;
		}
		cond_resched();
	}
	layer->nr_pages = sbd_store_nr_pages(store);
	layer->lower = store->base;
	store->base = layer;
	xa_destroy(&store->pages);
	atomic_long_set(&store->nr_pages, 0);
	return layer;
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
	struct sbd_log *log = NULL;
	int ret = 0;

	lockdep_assert_held(&dev->lock);
	if (dev->config.log_limit) {
		log = sbd_log_new(dev);
		if (!log)
			return -ENOMEM;
	}
	sbd_dev_quiesce(dev);
	mutex_lock(&dev->cache.lock);
	sbd_cache_flush(dev);
	if (!sbd_snap_freeze_store(&dev->store)) {
		ret = -ENOMEM;
	} else {
		if (log) {
			log->base = dev->store.base;
			kref_get(&log->base->ref);
		}
		swap(dev->log, log);
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
		log->base = dev->store.base;
		kref_get(&log->base->ref);
	}
	sbd_dev_quiesce(dev);
	mutex_lock(&dev->cache.lock);
	sbd_cache_flush(dev);
	dev->restore_pages = sbd_store_revert(&dev->store);
	swap(dev->log, log);
	mutex_unlock(&dev->cache.lock);
	sbd_dev_resume(dev);
	sbd_log_put(log);
	return 0;
}
