-- guard-delete: KEYS = {state, live meta, pending meta}, leaving out the meta of a generation the
-- client expects to be absent. ARGV[1], ARGV[2] the expected live and pending generations ('0': none);
-- ARGV[3] the delete count and ARGV[4] the fraction of its keys at which a generation wants a rebuild.
-- Counts one delete in both generations (the pending one's scan may have read the row before it was
-- deleted). Returns 1 if this delete is the first to reach a threshold for the live generation, else 0;
-- or {live, pending}, having written nothing, when the state is not the expected one.
local live, pending = state()
if live ~= ARGV[1] or pending ~= ARGV[2] then
  return {live, pending}
end
local lm, pm, lc
local next_key = 2
if live ~= '0' then
  lm = KEYS[next_key]
  next_key = next_key + 1
  if redis.call('EXISTS', lm) == 0 then
    return redis.error_reply('BLOOMMISSING no generation metadata at ' .. lm)
  end
  local err
  lc, err = gen_counters(lm)
  err = err or acl_check('HINCRBY', lm, 'deletes', '1') or acl_check('HSETNX', lm, 'shrink', '1')
  if err then return err end
end
if pending ~= '0' then
  pm = KEYS[next_key]
  if redis.call('EXISTS', pm) == 0 then
    return redis.error_reply('BLOOMMISSING no generation metadata at ' .. pm)
  end
  local _, err = gen_counters(pm)
  err = err or acl_check('HINCRBY', pm, 'deletes', '1')
  if err then return err end
  redis.call('HINCRBY', pm, 'deletes', 1)
end
if not lm then
  return 0
end
local deletes = redis.call('HINCRBY', lm, 'deletes', 1)
local keys = lc[1]
if (deletes >= tonumber(ARGV[3]) or deletes >= tonumber(ARGV[4]) * math.max(1, keys))
    and redis.call('HSETNX', lm, 'shrink', 1) == 1 then
  return 1
end
return 0
