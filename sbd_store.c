// SPDX-License-Identifier: GPL-2.0
/*
 * sbd backing store: one page of memory per page of disk that has been
 * written, nothing for the rest.
 *
 * Pages live in an xarray indexed by page number.  Lookups take no lock,
 * only RCU, and the pages of one request share one walk (a cursor); an
 * insert uses the xarray's lock; discarded pages are freed by an RCU
 * callback, so a reader that found one just before the discard still
 * copies from valid memory, and the discard itself does not wait for the
 * grace period.  Reads of missing pages return zeros.
 *
 * A store may sit on a snapshot (store->base, see sbd_snap.c): a page it
 * lacks is then read from the layers below, and the first write to such a
 * page copies it up (copy-on-write); a discard leaves SBD_HOLE where a
 * page below must no longer show.  Without a snapshot none of that runs.
 */
#include <linux/bio.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "sbd.h"
#include "sbd_compat.h"
#include "sbd_store.h"

void sbd_store_init(struct sbd_store *store)
{
	xa_init(&store->pages);
	atomic_long_set(&store->nr_pages, 0);
	store->base = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(sbd_store_init);

/* Frees every page; the disk is gone, so nothing can be reading them. */
void sbd_store_destroy(struct sbd_store *store)
{
	struct page *page;
	unsigned long idx;

	xa_for_each(&store->pages, idx, page) {
		if (!xa_is_value(page))
			__free_page(page);
	}
	xa_destroy(&store->pages);
	atomic_long_set(&store->nr_pages, 0);
	sbd_layer_put(store->base);
	store->base = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(sbd_store_destroy);

/* The page of a snapshot that shows at @idx, or NULL (zeros). */
struct page *sbd_layer_lookup(struct sbd_layer *layer, pgoff_t idx)
{
	for (; layer; layer = layer->lower) {
		void *entry = xa_load(&layer->pages, idx);

		if (entry)
			return xa_is_value(entry) ? NULL : entry;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(sbd_layer_lookup);

/*
 * A new page for @idx holding what was below (@below, or zeros) with
 * @len bytes of @buf at @off over it.  Filled before it is published, so
 * a concurrent reader sees the old contents or the new, never stale
 * memory.
 */
static struct page *sbd_store_new_page(struct page *below, unsigned int off,
				       const void *buf, unsigned int len,
				       gfp_t gfp)
{
	struct page *page;

	/*
	 * A page only partly written must read back zeros elsewhere.  Only
	 * the page is zeroed: the xarray's node cache has a constructor and
	 * must not be given __GFP_ZERO.
	 */
	page = alloc_page(gfp | __GFP_HIGHMEM |
			  (len < PAGE_SIZE && !below ? __GFP_ZERO : 0));
	if (!page)
		return NULL;
	if (below && len < PAGE_SIZE)
		copy_highpage(page, below);
	/*
	 * The piece lies in one page (sbd_chunk()).  Bounding @len so tells
	 * the compiler, which may then copy inline, as an overwrite does in
	 * sbd_store.h (GCC 12 does, for 6.1 and 6.12: the memcpy() it would
	 * call there is an unrolled loop without FSRM).
	 */
	VM_WARN_ON_ONCE(off + len > PAGE_SIZE);
	memcpy_to_page(page, off, buf,
		       min_t(unsigned int, len, PAGE_SIZE - off));
	return page;
}

/*
 * Publishes @page at the cursor's index if the entry there is still @old
 * (NULL, or a hole).  Called and returns under RCU, which it drops only to
 * allocate a node.  On success the cursor is left on the node that now
 * holds the page, so that the next page of the request is one step away
 * (xas_next()), not a walk from the root.  Returns 0, -EEXIST if another
 * writer changed the entry first, or -ENOMEM.
 */
static int sbd_store_publish(struct xa_state *xas, void *old,
			     struct page *page, gfp_t gfp)
	__must_hold(RCU)
{
	bool allocated = false;
	void *cur;

	for (;;) {
		xas_lock(xas);
		cur = xas_load(xas);
		if (cur == old)
			xas_store(xas, page);
		/* Still under RCU after the unlock: the node stays valid. */
		xas_unlock(xas);
		if (xas_error(xas) != -ENOMEM)
			break;
		/* No node without sleeping: allocate one outside RCU, retry. */
		rcu_read_unlock();
		allocated = xas_nomem(xas, gfp);
		rcu_read_lock();
		if (!allocated)
			return -ENOMEM;
	}
	/* Frees the node allocated above if the store did not need it. */
	if (allocated)
		xas_nomem(xas, gfp);
	if (xas_error(xas))
		return xas_error(xas);
	return cur == old ? 0 : -EEXIST;
}

/*
 * The store has no page of its own at @pos yet (@entry is NULL or a hole):
 * makes one, which may sleep, so outside RCU.  Out of line, as it happens
 * once per page of the disk.  Returns 0 once the data is in the store,
 * -EEXIST if another writer got there first (the caller looks again), or a
 * negative errno.
 */
noinline int sbd_store_copy_new(struct sbd_store_cursor *cur, void *entry,
				u64 pos, const void *buf, unsigned int len,
				gfp_t gfp)
	__must_hold(RCU)
{
	struct sbd_store *store = sbd_cursor_store(cur);
	pgoff_t idx = pos >> PAGE_SHIFT;
	struct page *below = NULL;
	struct page *page;
	int ret;

	/* A snapshot's pages stay while the store is on it. */
	if (!entry && unlikely(store->base))
		below = sbd_layer_lookup(store->base, idx);
	rcu_read_unlock();
	page = sbd_store_new_page(below, offset_in_page(pos), buf, len, gfp);
	rcu_read_lock();
	/* The tree may have changed: walk it again, under its lock. */
	xas_set(&cur->xas, idx);
	if (!page)
		return -ENOMEM;
	/* Counted before it is visible, so a discard never counts below 0. */
	atomic_long_inc(&store->nr_pages);
	ret = sbd_store_publish(&cur->xas, entry, page, gfp);
	if (ret) {
		atomic_long_dec(&store->nr_pages);
		__free_page(page);
	}
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(sbd_store_copy_new);

int sbd_store_write_at(struct sbd_store_cursor *cur, u64 pos,
		       const void *buf, unsigned int len, gfp_t gfp)
	__must_hold(RCU)
{
	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "sbd store write outside RCU");
	while (len) {
		unsigned int chunk = sbd_chunk(pos, len);
		int ret = sbd_store_copy_in(cur, pos, buf, chunk, gfp);

		if (ret)
			return ret;
		pos += chunk;
		buf += chunk;
		len -= chunk;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(sbd_store_write_at);

void sbd_store_read_at(struct sbd_store_cursor *cur, u64 pos, void *buf,
		       unsigned int len)
	__must_hold(RCU)
{
	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "sbd store read outside RCU");
	while (len) {
		unsigned int chunk = sbd_chunk(pos, len);

		sbd_store_copy_out(cur, pos, buf, chunk);
		pos += chunk;
		buf += chunk;
		len -= chunk;
	}
}
EXPORT_SYMBOL_IF_KUNIT(sbd_store_read_at);

/* One buffer, its own cursor: for callers that are not a request. */
int sbd_store_write(struct sbd_store *store, u64 pos, const void *buf,
		    unsigned int len, gfp_t gfp)
{
	struct sbd_store_cursor cur = SBD_STORE_CURSOR(store);
	int ret;

	rcu_read_lock();
	ret = sbd_store_write_at(&cur, pos, buf, len, gfp);
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(sbd_store_write);

void sbd_store_read(struct sbd_store *store, u64 pos, void *buf,
		    unsigned int len)
{
	struct sbd_store_cursor cur = SBD_STORE_CURSOR(store);

	rcu_read_lock();
	sbd_store_read_at(&cur, pos, buf, len);
	rcu_read_unlock();
}
EXPORT_SYMBOL_IF_KUNIT(sbd_store_read);

/*
 * Zeroes part of one page, if the page exists.  One that only a snapshot
 * below has is copied up first, like any other write to it.
 */
static int sbd_store_zero_partial(struct sbd_store *store, u64 pos,
				  unsigned int len, gfp_t gfp)
{
	pgoff_t idx = pos >> PAGE_SHIFT;
	struct page *page;

	rcu_read_lock();
	page = xa_load(&store->pages, idx);
	if (page && !xa_is_value(page))
		memzero_page(page, offset_in_page(pos), len);
	rcu_read_unlock();
	if (page || !sbd_layer_lookup(store->base, idx))
		return 0;
	return sbd_store_write(store, pos, page_address(ZERO_PAGE(0)), len, gfp);
}

/* The pages one discard unlinked, freed together after a grace period. */
struct sbd_store_freed {
	struct rcu_head		rcu;
	struct list_head	pages;		/* linked by page->lru */
};

static void sbd_store_free_batch(struct rcu_head *rcu)
{
	struct sbd_store_freed *batch = container_of(rcu, struct sbd_store_freed,
						     rcu);
	struct page *page, *next;

	list_for_each_entry_safe(page, next, &batch->pages, lru)
		__free_page(page);
	kfree(batch);
}

static void sbd_store_free_page(struct rcu_head *rcu)
{
	__free_page(container_of(rcu, struct page, rcu_head));
}

/*
 * Frees @pages once no reader can still be copying from them.  One
 * callback for the lot; a lone page (a 4 KiB discard), or pages whose
 * small batch cannot be allocated (without sleeping: the I/O path may
 * not), one callback per page, on the page's own rcu_head.
 */
static void sbd_store_free_later(struct list_head *pages)
{
	struct sbd_store_freed *batch = NULL;
	struct page *page, *next;

	if (!list_is_singular(pages))
		batch = kmalloc(sizeof(*batch), GFP_NOWAIT | __GFP_NOWARN);
	if (batch) {
		INIT_LIST_HEAD(&batch->pages);
		list_splice(pages, &batch->pages);
		sbd_compat_call_rcu_hurry(&batch->rcu, sbd_store_free_batch);
		return;
	}
	list_for_each_entry_safe(page, next, pages, lru) {
		list_del(&page->lru);	/* lru and rcu_head share storage */
		sbd_compat_call_rcu_hurry(&page->rcu_head, sbd_store_free_page);
	}
}

/* Pages per RCU callback: each frees its batch with no break. */
#define SBD_FREE_BATCH		512

/*
 * Gives pages @first..@last back to the system, leaving @hole (NULL, or
 * SBD_HOLE over a snapshot: replacing an entry allocates nothing).  It visits only the pages
 * that exist, so discarding a huge, mostly empty disk is quick.  nr_pages
 * drops at once; the memory follows a grace period later, unless @now:
 * no reader can reach the range any more (a restore, with the disk
 * quiesced).
 */
static unsigned long sbd_store_free_range(struct sbd_store *store,
					  pgoff_t first, pgoff_t last,
					  bool now, void *hole)
{
	XA_STATE(xas, &store->pages, first);
	struct page *page, *next;
	unsigned long removed = 0;
	unsigned int n = 0;
	LIST_HEAD(freed);

	xas_lock(&xas);
	xas_for_each(&xas, page, last) {
		xas_store(&xas, hole);
		removed++;
		if (xa_is_value(page))
			continue;		/* a hole: no page */
		atomic_long_dec(&store->nr_pages);
		list_add(&page->lru, &freed);
		if (!now && ++n == SBD_FREE_BATCH) {
			sbd_store_free_later(&freed);
			INIT_LIST_HEAD(&freed);
			n = 0;
		}
		if (need_resched()) {
			xas_pause(&xas);
			xas_unlock(&xas);
			cond_resched();
			xas_lock(&xas);
		}
	}
	xas_unlock(&xas);

	if (list_empty(&freed))
		return removed;
	if (!now) {
		sbd_store_free_later(&freed);
		return removed;
	}
	list_for_each_entry_safe(page, next, &freed, lru) {
		__free_page(page);
		cond_resched();
	}
	return removed;
}

/*
 * Over a snapshot, pages @first..@last must read zeros although the layers
 * below hold some of them: a hole goes where each of those shows.
 */
static int sbd_store_mask_range(struct sbd_store *store, pgoff_t first,
				pgoff_t last, gfp_t gfp)
{
	struct sbd_layer *layer;
	unsigned long idx;
	void *entry;

	for (layer = store->base; layer; layer = layer->lower) {
		xa_for_each_range(&layer->pages, idx, entry, first, last) {
			void *cur = xa_cmpxchg(&store->pages, idx, NULL,
					       SBD_HOLE, gfp);

			if (xa_is_err(cur))
				return xa_err(cur);
			cond_resched();
		}
	}
	return 0;
}

/*
 * Discard and write-zeroes: whole pages go back to the system, the parts
 * of pages at either end of the range are zeroed in place.  Fails only
 * over a snapshot, for want of memory to record what it discarded.
 */
int sbd_store_zero(struct sbd_store *store, u64 pos, u64 len, gfp_t gfp)
{
	u64 end = pos + len;
	u64 head_end = min(end, round_up(pos, PAGE_SIZE));
	u64 tail_start;
	int ret = 0;

	if (head_end > pos) {
		ret = sbd_store_zero_partial(store, pos, head_end - pos, gfp);
		pos = head_end;
	}
	tail_start = max(pos, round_down(end, PAGE_SIZE));
	if (!ret && tail_start > pos) {
		pgoff_t first = pos >> PAGE_SHIFT;
		pgoff_t last = (tail_start >> PAGE_SHIFT) - 1;

		/* Over a snapshot, what the store had becomes a hole at once. */
		sbd_store_free_range(store, first, last, false,
				     store->base ? SBD_HOLE : NULL);
		if (store->base)
			ret = sbd_store_mask_range(store, first, last, gfp);
	}
	if (!ret && end > tail_start)
		ret = sbd_store_zero_partial(store, tail_start,
					     end - tail_start, gfp);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(sbd_store_zero);

/*
 * Everything from @size on goes, the part-page at @size zeroed: a shrink,
 * or a grow clearing what a bio that raced a shrink left past the end.
 * Such a bio may still be copying there, so the pages go the way a
 * discard's do, after a grace period.
 */
void sbd_store_truncate(struct sbd_store *store, u64 size)
{
	u64 head_end = round_up(size, PAGE_SIZE);

	/* No snapshot here (sbd_dev_resize refuses), so nothing allocates. */
	if (head_end > size)
		sbd_store_zero_partial(store, size, head_end - size, GFP_NOIO);
	sbd_store_free_range(store, head_end >> PAGE_SHIFT, ULONG_MAX, false,
			     NULL);
}
EXPORT_SYMBOL_IF_KUNIT(sbd_store_truncate);

/*
 * Back to the snapshot below: every page and hole of the store's own goes,
 * at once (the disk is quiesced).  Returns how many there were.
 */
unsigned long sbd_store_revert(struct sbd_store *store)
{
	return sbd_store_free_range(store, 0, ULONG_MAX, true, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(sbd_store_revert);

/*
 * Moves *@idx to the first page at or after it, up to @last, that exists,
 * in the store or in a snapshot below it (or may: a hole counts too).
 */
bool sbd_store_next_page(struct sbd_store *store, pgoff_t *idx, pgoff_t last)
{
	unsigned long found = ULONG_MAX, i = *idx;
	struct sbd_layer *layer;

	if (xa_find(&store->pages, &i, last, XA_PRESENT))
		found = i;
	for (layer = store->base; layer; layer = layer->lower) {
		i = *idx;
		if (xa_find(&layer->pages, &i, min(last, found), XA_PRESENT))
			found = min(found, i);
	}
	if (found == ULONG_MAX)
		return false;
	*idx = found;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(sbd_store_next_page);
