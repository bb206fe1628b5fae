/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The store's copy between a request's bios and its pages (sbd_store.c
 * has the rest of the store).  Inline, like the I/O core that calls it
 * (sbd_io.h), so that a request's copy runs in its front end's submit
 * function, as brd's runs in brd_submit_bio(): no call, no second frame.
 * A write that needs a new page leaves it for sbd_store_copy_new(), out of
 * line.
 */
#ifndef SBD_STORE_H
#define SBD_STORE_H

#include <linux/bio.h>
#include <linux/highmem.h>
#include <linux/rcupdate.h>

#include "sbd.h"

/* Bytes from @pos to the end of its page, at most @len. */
static inline unsigned int sbd_chunk(u64 pos, unsigned int len)
{
	return min_t(unsigned int, len, PAGE_SIZE - offset_in_page(pos));
}

/* The store a cursor walks: its xa_state is on store->pages. */
static inline struct sbd_store *
sbd_cursor_store(struct sbd_store_cursor *cur)
{
	return container_of(cur->xas.xa, struct sbd_store, pages);
}

/*
 * The entry at @idx: a page, SBD_HOLE or NULL.  The next page after the
 * last one looked up is usually in the same xarray node: xas_next() steps
 * to it.  Anything else, or a cursor that is not on a node, walks down
 * from the root.
 */
static inline void *sbd_cursor_page(struct sbd_store_cursor *cur, pgoff_t idx)
{
	struct xa_state *xas = &cur->xas;
	void *page;

	if (!xas_not_node(xas->xa_node) && idx == xas->xa_index + 1) {
		page = xas_next(xas);
	} else {
		xas_set(xas, idx);
		page = xas_load(xas);
	}
	/* A node that a writer was changing: walk down again. */
	while (xa_is_retry(page)) {
		xas_reset(xas);
		page = xas_load(xas);
	}
	return page;
}

/*
 * Copies @len bytes at @pos, all in one page of the disk, out of the store
 * into @buf.
 */
static __always_inline void sbd_store_copy_out(struct sbd_store_cursor *cur,
					       u64 pos, void *buf,
					       unsigned int len)
	__must_hold(RCU)
{
	pgoff_t idx = pos >> PAGE_SHIFT;
	struct page *page = sbd_cursor_page(cur, idx);

	if (xa_is_value(page))
		page = NULL;		/* a hole over a snapshot */
	else if (!page && unlikely(sbd_cursor_store(cur)->base))
		page = sbd_layer_lookup(sbd_cursor_store(cur)->base, idx);
	if (page)
		memcpy_from_page(buf, page, offset_in_page(pos), len);
	else
		memset(buf, 0, len);
}

/* sbd_store.c: a page for a write where the store has none (out of line). */
int sbd_store_copy_new(struct sbd_store_cursor *cur, void *entry, u64 pos,
		       const void *buf, unsigned int len, gfp_t gfp)
	__must_hold(RCU);

/* Copies @len bytes from @buf into the store at @pos, all in one page. */
static __always_inline int sbd_store_copy_in(struct sbd_store_cursor *cur,
					     u64 pos, const void *buf,
					     unsigned int len, gfp_t gfp)
	__must_hold(RCU)
{
	for (;;) {
		void *entry = sbd_cursor_page(cur, pos >> PAGE_SHIFT);
		int ret;

		if (entry && !xa_is_value(entry)) {
			memcpy_to_page(entry, offset_in_page(pos), buf, len);
			return 0;
		}
		ret = sbd_store_copy_new(cur, entry, pos, buf, len, gfp);
		if (ret != -EEXIST)
			return ret;
		/* Lost a race: copy into the winner's page. */
	}
}

/*
 * A request's data is @bio and, if @chained, the bios linked after it,
 * from @pos on the disk.  It is copied a piece at a time, as brd does: the
 * most that lies in one page of the bio and in one page of the store.  One
 * RCU section and one cursor serve all the pieces.
 */
static inline struct bio_vec sbd_bio_piece(struct bio *bio,
					   struct bvec_iter iter, u64 pos)
{
	struct bio_vec bv = bio_iter_iovec(bio, iter);

	bv.bv_len = sbd_chunk(pos, bv.bv_len);
	return bv;
}

/* Both copies in one loop: @write is a constant in each caller below. */
static __always_inline int sbd_store_copy_bio(struct sbd_store *store,
					      struct bio *bio, bool chained,
					      u64 pos, bool write, gfp_t gfp)
{
	struct sbd_store_cursor cur = SBD_STORE_CURSOR(store);
	int ret = 0;

	rcu_read_lock();
	do {
		struct bvec_iter iter = bio->bi_iter;

		while (iter.bi_size) {
			struct bio_vec bv = sbd_bio_piece(bio, iter, pos);
			void *buf = bvec_kmap_local(&bv);

			if (write)
				ret = sbd_store_copy_in(&cur, pos, buf,
							bv.bv_len, gfp);
			else
				sbd_store_copy_out(&cur, pos, buf, bv.bv_len);
			kunmap_local(buf);
			if (ret)
				goto out;
			bvec_iter_advance_single(bio->bi_io_vec, &iter,
						 bv.bv_len);
			pos += bv.bv_len;
		}
	} while (chained && (bio = bio->bi_next));
out:
	rcu_read_unlock();
	return ret;
}

static __always_inline void sbd_store_read_bio(struct sbd_store *store,
					       struct bio *bio, bool chained,
					       u64 pos)
{
	sbd_store_copy_bio(store, bio, chained, pos, false, 0);
}

static __always_inline int sbd_store_write_bio(struct sbd_store *store,
					       struct bio *bio, bool chained,
					       u64 pos, gfp_t gfp)
{
	return sbd_store_copy_bio(store, bio, chained, pos, true, gfp);
}

#endif /* SBD_STORE_H */
