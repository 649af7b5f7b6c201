-- 0043 (expand): add orders.status next to the legacy orders.state column.
-- Deploy order: this migration, then the app version that writes both
-- columns, then the backfill below and 0044 (validate), then 0045 (contract:
-- drop orders.state) in a later release.

SET lock_timeout = '5s';

-- Nullable with no default: a metadata-only change, no table rewrite.
ALTER TABLE orders ADD COLUMN status text;

-- Enforce the allowed values without scanning the table under lock...
ALTER TABLE orders
    ADD CONSTRAINT orders_status_check
    CHECK (status IN ('pending', 'paid', 'shipped', 'cancelled')) NOT VALID;

-- ...and validate it in the next migration (0044), in its own transaction:
-- VALIDATE takes only a SHARE UPDATE EXCLUSIVE lock, but inside this
-- transaction it would scan the table while the lock above is still held.
--
--   ALTER TABLE orders VALIDATE CONSTRAINT orders_status_check;

-- Backfill in small batches from a job, not in this migration. Each batch is
-- its own transaction so locks stay short and replicas keep up. Values are
-- bound as parameters, never concatenated into the SQL text (CWE-89).
--
--   UPDATE orders SET status = state
--    WHERE id IN (SELECT id FROM orders
--                  WHERE status IS NULL AND id > $1
--                  ORDER BY id LIMIT 5000)
--   RETURNING id;
