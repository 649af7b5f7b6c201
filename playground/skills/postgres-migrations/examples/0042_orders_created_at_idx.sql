-- 0042: index orders by creation time for the "recent orders" page.
-- CREATE INDEX CONCURRENTLY cannot run inside a transaction, so this
-- migration must be marked non-transactional in the migration tool
-- (for example "-- migrate:no-transaction" or "atomic = false").

SET lock_timeout = '5s';
SET statement_timeout = '0';  -- the build itself may take minutes

-- A previous failed attempt leaves an INVALID index behind; drop it first.
DROP INDEX CONCURRENTLY IF EXISTS orders_created_at_idx;

CREATE INDEX CONCURRENTLY orders_created_at_idx
    ON orders (created_at DESC)
    WHERE deleted_at IS NULL;

-- Verify after the run (expect indisvalid = true):
-- SELECT indexrelid::regclass, indisvalid
--   FROM pg_index WHERE indexrelid = 'orders_created_at_idx'::regclass;
