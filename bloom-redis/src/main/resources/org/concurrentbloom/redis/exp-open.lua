-- exp-open: ARGV[9] the id a new filter gets, ARGV[10] '' (not known yet), ARGV[11] n, ARGV[12] p
-- (descriptive, stored for later instances), ARGV[13] a manual clock's start ('' for the server's clock).
-- Creates the metadata of an expiring filter whose first slot begins now, unless it exists. An existing
-- filter of strategy 1 or 4 is accepted (ARGV[2] is the strategy of a new one); one of layout version 1
-- is upgraded in place (below). Returns {created 1|0, n, p, origin, id, strategy}; an error, having
-- written nothing, if the key holds another shape or data this library did not write.
local meta = KEYS[1]

if key_type(meta) == 'none' then
  local err = acl_check('HSET', meta, 'version', ARGV[1])
  if err then return err end
  local origin
  if ARGV[13] ~= '' then
    origin = ARGV[13]
  else
    origin = exp_int(exp_server_now())
  end
  redis.call('HSET', meta, 'version', ARGV[1], 'kind', 'expiring', 'strategy', ARGV[2], 'm', ARGV[3], 'k', ARGV[4],
      'generations', ARGV[5], 'span', ARGV[6], 'window', ARGV[7], 'clock', ARGV[8], 'id', ARGV[9], 'origin', origin,
      'high', 0, 'n', ARGV[11], 'fpp', ARGV[12])
  if ARGV[13] ~= '' then
    redis.call('HSET', meta, 'now', ARGV[13])
  end
  return {1, ARGV[11], ARGV[12], origin, ARGV[9], ARGV[2]}
end

local s, err = exp_meta_fields(meta)
if err then return err end
local stored = redis.call('HMGET', meta, 'n', 'fpp')

-- Layout 1 (before ids): one key per generation with an expiry, and its counter in a key c<slot>. The
-- generations of the window are made permanent and listed in the directory, their counters moved into
-- it, and the filter gets an id: from then on it is a layout-2 filter with the same bits (strategy 1).
if s[1] == '1' then
  local shape = {}
  for i = 1, #EXP_FIELDS do shape[i] = s[i] end
  shape[1] = ARGV[1]
  err = exp_shape_error(meta, shape, true)
  if err then return err end
  local origin, high = strict_int(s[11]), strict_int(s[12])
  if not origin then return bad_field(meta, 'origin', s[11], 'a time in ms') end
  if not high then return bad_field(meta, 'high', s[12], 'a slot number') end
  local g, span = tonumber(ARGV[5]), tonumber(ARGV[6])
  local cur = exp_slot_of(exp_server_now() - origin, span)
  if cur < high then cur = high end
  local ctx = {meta = meta, m = tonumber(ARGV[3])}
  local base = string.sub(meta, 1, -5)
  local found = {}
  for slot = cur - g + 1, cur do
    local key = base .. 'g' .. exp_int(slot)
    local present, serr = exp_check_string(ctx, key)
    if serr then return serr end
    local counter = base .. 'c' .. exp_int(slot)
    local t = key_type(counter)
    local count = 0
    if t ~= 'none' then
      local v = t == 'string' and redis.call('GET', counter) or nil
      count = strict_int(v)
      if not count then
        return redis.error_reply('BLOOMFOREIGN ' .. counter .. ' holds ' .. (v and ('"' .. v .. '"') or ('a ' .. t))
            .. ', not an expiring filter\'s add counter: it was not written by this library; nothing was written')
      end
    end
    if present then
      found[#found + 1] = {slot = slot, key = key, counter = counter, count = count}
    end
  end
  err = acl_check('HSET', meta, 'version', ARGV[1]) or acl_check('PERSIST', base .. 'g0')
      or acl_check('DEL', base .. 'c0')
  if err then return err end
  for _, f in ipairs(found) do
    redis.call('PERSIST', f.key)
    local p = f.slot % g
    redis.call('HSET', meta, 's' .. p, exp_int(f.slot), 'c' .. p, exp_int(f.count))
    redis.call('DEL', f.counter)
  end
  redis.call('HSET', meta, 'version', ARGV[1], 'id', ARGV[9])
  return {0, stored[1], stored[2], s[11], ARGV[9], s[3]}
end

err = exp_shape_error(meta, s, true)
if err then return err end
if not s[10] or not string.match(s[10], '^%x+$') then
  return bad_field(meta, 'id', s[10], 'a filter id (hex digits)')
end
if not strict_int(s[11]) then
  return bad_field(meta, 'origin', s[11], 'a time in ms')
end
-- Attaching: the filter must be whole. Every generation of the window the directory lists must be
-- there, or the items added in its slot are lost: refused, naming it, rather than attached to (and no
-- generation is ever made again in its place). The checks below read the stored id, origin and strategy.
ARGV[2], ARGV[9], ARGV[10] = s[3], s[10], s[11]
local ctx
ctx, err = exp_context(meta)
if err then return err end
err = exp_check_window(ctx)
if err then return err end
return {0, stored[1], stored[2], s[11], s[10], s[3]}
