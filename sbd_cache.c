// SPDX-License-Identifier: GPL-2.0
/*
 * sbd emulated volatile write cache, for crash-consistency testing.
 *
 * Writes go to the backing store at once, so reads always see the newest
 * data.  What a power cut must go back to is kept aside instead: for every
 * page with logical blocks written since the last flush, an entry holds
 * which blocks are dirty and, for each of them, what it held when it was
 * last durable.  A block's durable contents are copied the moment it turns
 * dirty; until then its current contents are durable ones.
 *
 *   flush          forget every entry: everything written is durable
 *   FUA write      its blocks turn clean
 *   power cut      each dirty block gets its durable contents back, or is
 *                  kept with probability power_cut_keep% (a torn write)
 *
 * With power_cut_versions, a block written again while dirty also keeps
 * the contents that write replaces: a real write-back cache may have
 * destaged any of them before the power went, so a cut that does not keep
 * the newest picks one of the older versions, the durable one included.
 */
#include <linux/bitmap.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "sbd.h"

/* The most logical blocks a page holds: 512-byte blocks. */
#define SBD_BLOCKS_PER_PAGE	(PAGE_SIZE / SECTOR_SIZE)

struct sbd_cache_entry {
	struct page		*saved;		/* durable contents of dirty blocks */
	DECLARE_BITMAP(dirty, SBD_BLOCKS_PER_PAGE);
	struct list_head	versions;	/* struct sbd_cache_version, oldest first */
};

/* An intermediate version of a dirty block (power_cut_versions). */
struct sbd_cache_version {
	struct list_head	node;
	unsigned int		block;		/* in its page */
	u8			data[];		/* a logical block */
};

void sbd_cache_init(struct sbd_cache *cache)
{
	mutex_init(&cache->lock);
	xa_init(&cache->entries);
}

/* Forgets the intermediate versions of block @b, or of all (@b < 0). */
static void sbd_cache_free_versions(struct sbd_cache_entry *e, int b)
{
	struct sbd_cache_version *v, *next;

	list_for_each_entry_safe(v, next, &e->versions, node) {
		if (b >= 0 && v->block != b)
			continue;
		list_del(&v->node);
		kfree(v);
	}
}

static void sbd_cache_free_entry(struct sbd_cache_entry *e)
{
	sbd_cache_free_versions(e, -1);
	__free_page(e->saved);
	kfree(e);
}

/* Forgets every entry: the blocks they saved for are durable now. */
static void sbd_cache_forget(struct sbd_cache *cache, pgoff_t first)
{
	struct sbd_cache_entry *e;
	unsigned long idx;

	xa_for_each_start(&cache->entries, idx, e, first) {
		cache->count[SBD_CACHE_VOLATILE_BLOCKS] -= bitmap_weight(e->dirty,
							SBD_BLOCKS_PER_PAGE);
		xa_erase(&cache->entries, idx);
		sbd_cache_free_entry(e);
	}
}

void sbd_cache_destroy(struct sbd_cache *cache)
{
	sbd_cache_forget(cache, 0);
	xa_destroy(&cache->entries);
	mutex_destroy(&cache->lock);
}

static unsigned int sbd_block_shift(struct sbd_dev *dev)
{
	return ilog2(dev->config.logical_block_size);
}

/*
 * Intermediate versions kept per block: a block rewritten more often
 * between flushes (a journal's) keeps its newest ones, so neither memory
 * nor a cut's work grows with the rewrites.
 */
#define SBD_CACHE_MAX_VERSIONS	4

/* Dirty block @b of the page at @page_pos is about to change again. */
static int sbd_cache_keep_version(struct sbd_dev *dev,
				  struct sbd_cache_entry *e, u64 page_pos,
				  unsigned int b, gfp_t gfp)
{
	unsigned int shift = sbd_block_shift(dev), n = 0;
	struct sbd_cache_version *v, *oldest = NULL;

	list_for_each_entry(v, &e->versions, node) {
		if (v->block != b)
			continue;
		if (!n++)
			oldest = v;
	}
	if (n < SBD_CACHE_MAX_VERSIONS) {
		v = kmalloc(struct_size(v, data, 1 << shift), gfp);
		if (!v)
			return -ENOMEM;
		v->block = b;
	} else {
		v = oldest;		/* reused for the newest */
		list_del(&v->node);
	}
	sbd_store_read(&dev->store, page_pos + (b << shift), v->data,
		       1 << shift);
	list_add_tail(&v->node, &e->versions);
	return 0;
}

/*
 * Blocks [@pos, @pos + @len) of one page are about to change: save the
 * durable contents of those still clean, and mark them dirty.
 */
static int sbd_cache_dirty_page(struct sbd_dev *dev, u64 pos, u64 len,
				gfp_t gfp)
{
	struct sbd_cache *cache = &dev->cache;
	unsigned int shift = sbd_block_shift(dev);
	pgoff_t idx = pos >> PAGE_SHIFT;
	u64 page_pos = (u64)idx << PAGE_SHIFT;
	unsigned int b, first = offset_in_page(pos) >> shift;
	unsigned int last = (offset_in_page(pos) + len - 1) >> shift;
	bool versions = READ_ONCE(dev->config.power_cut_versions);
	struct sbd_cache_entry *e;

	e = xa_load(&cache->entries, idx);
	if (!e) {
		e = kzalloc(sizeof(*e), gfp);
		if (!e)
			return -ENOMEM;
		INIT_LIST_HEAD(&e->versions);
		/* Lowmem: the saved blocks are copied through page_address(). */
		e->saved = alloc_page(gfp);
		if (!e->saved) {
			kfree(e);
			return -ENOMEM;
		}
		if (xa_err(xa_store(&cache->entries, idx, e, gfp))) {
			sbd_cache_free_entry(e);
			return -ENOMEM;
		}
	}
	for (b = first; b <= last; b++) {
		if (test_bit(b, e->dirty)) {
			int ret = 0;

			if (versions)
				ret = sbd_cache_keep_version(dev, e, page_pos,
							     b, gfp);
			if (ret)
				return ret;
			continue;
		}
		sbd_store_read(&dev->store, page_pos + (b << shift),
			       page_address(e->saved) + (b << shift), 1 << shift);
		__set_bit(b, e->dirty);
		cache->count[SBD_CACHE_VOLATILE_BLOCKS]++;
	}
	return 0;
}

/* A write to [@pos, @pos + @len), block-aligned, is about to happen. */
int sbd_cache_dirty(struct sbd_dev *dev, u64 pos, u64 len, gfp_t gfp)
{
	u64 end = pos + len;

	lockdep_assert_held(&dev->cache.lock);
	while (pos < end) {
		u64 chunk = min_t(u64, end - pos, PAGE_SIZE - offset_in_page(pos));
		int ret = sbd_cache_dirty_page(dev, pos, chunk, gfp);

		if (ret)
			return ret;
		pos += chunk;
	}
	return 0;
}

/*
 * The same for a discard or write-zeroes, which may span the whole disk:
 * only pages that hold data change, the others read zeros before and after.
 */
int sbd_cache_dirty_present(struct sbd_dev *dev, u64 pos, u64 len, gfp_t gfp)
{
	u64 end = pos + len;
	pgoff_t idx = pos >> PAGE_SHIFT;
	pgoff_t last = (end - 1) >> PAGE_SHIFT;

	lockdep_assert_held(&dev->cache.lock);
	while (idx <= last && sbd_store_next_page(&dev->store, &idx, last)) {
		u64 from = max(pos, (u64)idx << PAGE_SHIFT);
		u64 to = min(end, ((u64)idx + 1) << PAGE_SHIFT);
		int ret = sbd_cache_dirty_page(dev, from, to - from, gfp);

		if (ret)
			return ret;
		if (idx == last)
			break;
		idx++;
	}
	return 0;
}

/* A FUA write to [@pos, @pos + @len) has completed: those blocks are durable. */
void sbd_cache_clean(struct sbd_dev *dev, u64 pos, u64 len)
{
	struct sbd_cache *cache = &dev->cache;
	unsigned int shift = sbd_block_shift(dev);
	u64 end = pos + len;

	lockdep_assert_held(&cache->lock);
	while (pos < end) {
		u64 chunk = min_t(u64, end - pos, PAGE_SIZE - offset_in_page(pos));
		unsigned int b = offset_in_page(pos) >> shift;
		unsigned int last = (offset_in_page(pos) + chunk - 1) >> shift;
		pgoff_t idx = pos >> PAGE_SHIFT;
		struct sbd_cache_entry *e = xa_load(&cache->entries, idx);

		for (; e && b <= last; b++) {
			if (__test_and_clear_bit(b, e->dirty)) {
				cache->count[SBD_CACHE_VOLATILE_BLOCKS]--;
				sbd_cache_free_versions(e, b);
			}
		}
		if (e && bitmap_empty(e->dirty, SBD_BLOCKS_PER_PAGE)) {
			xa_erase(&cache->entries, idx);
			sbd_cache_free_entry(e);
		}
		pos += chunk;
	}
}

void sbd_cache_flush(struct sbd_dev *dev)
{
	lockdep_assert_held(&dev->cache.lock);
	sbd_cache_forget(&dev->cache, 0);
}

/*
 * What a lost block @b goes back to: its durable contents, or with
 * intermediate versions, one of them or those, drawn from @rnd.
 */
static void *sbd_cache_lost_version(struct sbd_cache_entry *e, unsigned int b,
				    unsigned int shift, bool versions,
				    struct rnd_state *rnd)
{
	struct sbd_cache_version *v;
	unsigned int n = 0, pick;

	list_for_each_entry(v, &e->versions, node)
		n += versions && v->block == b;
	if (!n)
		return page_address(e->saved) + (b << shift);
	pick = prandom_u32_state(rnd) % (n + 1);
	if (!pick)
		return page_address(e->saved) + (b << shift);
	list_for_each_entry(v, &e->versions, node) {
		if (v->block == b && !--pick)
			return v->data;
	}
	return NULL;	/* not reached */
}

/*
 * Power cut: every dirty block gets its durable contents back (or, with
 * power_cut_versions, one of its older versions), unless it is one of the
 * power_cut_keep% that made it to the medium.  The choice depends only on
 * the seed, the cut's number and the order of the blocks, so the same
 * writes and seed give the same result.
 */
void sbd_cache_power_cut(struct sbd_dev *dev)
{
	struct sbd_cache *cache = &dev->cache;
	unsigned int shift = sbd_block_shift(dev);
	u32 keep = dev->config.power_cut_keep;
	/* Versions kept before it was turned off count no more. */
	bool versions = READ_ONCE(dev->config.power_cut_versions);
	struct sbd_cache_entry *e;
	struct rnd_state rnd;
	unsigned long idx;
	unsigned int b;

	lockdep_assert_held(&cache->lock);
	prandom_seed_state(&rnd, dev->config.seed ^ (cache->count[SBD_CACHE_POWER_CUTS] + 1));
	cache->count[SBD_CACHE_LOST_BLOCKS] = 0;
	xa_for_each(&cache->entries, idx, e) {
		u64 page_pos = (u64)idx << PAGE_SHIFT;

		for_each_set_bit(b, e->dirty, SBD_BLOCKS_PER_PAGE) {
			u64 pos = page_pos + (b << shift);
			void *saved;

			if (prandom_u32_state(&rnd) % 100 < keep)
				continue;
			saved = sbd_cache_lost_version(e, b, shift, versions, &rnd);
			/*
			 * The page may have to come back (discarded since the
			 * flush, or only in a snapshot below): a cut cannot
			 * keep a block it says it lost, so this must not fail.
			 */
			WARN_ON_ONCE(sbd_store_write(&dev->store, pos, saved,
						     1 << shift,
						     GFP_NOIO | __GFP_NOFAIL));
			cache->count[SBD_CACHE_LOST_BLOCKS]++;
		}
	}
	sbd_cache_forget(cache, 0);
	cache->count[SBD_CACHE_POWER_CUTS]++;
}

/* A shrink to @size: blocks past it need no saving any more. */
void sbd_cache_truncate(struct sbd_dev *dev, u64 size)
{
	struct sbd_cache *cache = &dev->cache;
	u64 tail = round_up(size, PAGE_SIZE);

	lockdep_assert_held(&cache->lock);
	if (tail > size)
		sbd_cache_clean(dev, size, tail - size);
	sbd_cache_forget(cache, tail >> PAGE_SHIFT);
}
