-- Scale-out: the fencing token of a table's current owner node. A node that takes a table over raises it first;
-- every write of the owner checks it, so a node that lost its lease can no longer write for the table.
ALTER TABLE game_tables ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
