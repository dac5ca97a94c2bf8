-- create: opens one partition for RedisBloomFilter.Builder's create, createNew and attach (FilterOpener
-- has the protocol; docs/REDIS.md, "Creating a filter"). ARGV[1..5] the shape (ARGV[2] the strategy a
-- new filter gets), ARGV[6] the filter id (a new one, or the one being created), ARGV[7] n, ARGV[8] p
-- (descriptive, stored for attach), ARGV[9] the mode, ARGV[10] '1' if the strategy must be ARGV[2] ('0':
-- an existing filter of strategy 1 or 4 is accepted), ARGV[11..] the mode's arguments:
--   probe                   reads only: {present 1|0, id, strategy, n, p, creation}, creation '' (complete),
--                           'busy' (being created, lease running) or 'expired' (its creator's lease ran out)
--   single  flag            the one partition of a one-partition filter, made in one step; flag '1' refuses
--                           an existing one (create-new), '0' attaches to it, 'a' only attaches (and gives
--                           an old filter without an id one), refusing to create
--   begin   lease exclusive partition 0 of a partitioned filter, made with the creation lease (server ms)
--   member  create old-id   partition i >= 1: created only if ARGV[11] = '1' (the creator's call); one
--                           holding old-id (a creation taken over) is emptied and given the new id
--   complete                partition 0 loses its creation lease: the filter is complete
--   takeover lease old-id   partition 0 of a creation whose lease ran out gets the new id and lease
-- single and begin return {created 1|0, id, strategy, n, p, creation}. An existing partition of a filter
-- made before ids (no id field) gets ARGV[6] as its id, except as a member of a filter being created,
-- where it is a leftover. Every refusal writes nothing.
local bits, meta = KEYS[1], KEYS[2]
local mode = ARGV[9]

local function server_now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- The existing partition checked against the client's shape; returns its fields or an error reply.
local function existing()
  local err = check_meta_type(meta)
  if err then return nil, err end
  local s = redis.call('HMGET', meta, 'version', 'strategy', 'm', 'k', 'partitions', 'id', 'count', 'n', 'fpp',
      'creating')
  local strategy = s[2]
  if ARGV[10] ~= '1' and (strategy == '1' or strategy == '4') then
    s[2] = ARGV[2] -- compared as equal: the client takes the stored strategy
  end
  err = shape_error(meta, s)
  if err then return nil, err end
  s[2] = strategy
  if not strict_int(s[7]) then
    return nil, bad_field(meta, 'count', s[7], 'a decimal integer count in [0, 2^53)')
  end
  if s[6] and not string.match(s[6], '^%x+$') then
    return nil, bad_field(meta, 'id', s[6], 'a filter id (hex digits)')
  end
  if s[10] and not strict_int(s[10]) then
    return nil, bad_field(meta, 'creating', s[10], 'a creation deadline in ms')
  end
  err = check_bits(bits, meta, ARGV[3])
  if err then return nil, err end
  return s, nil
end

local function creation(s)
  if not s[10] then return '' end
  if server_now() > strict_int(s[10]) then return 'expired' end
  return 'busy'
end

local function make(extra_field, extra_value)
  local err = acl_check('SETBIT', bits, '0', '0') or acl_check('HSET', meta, 'version', ARGV[1])
  if err then return err end
  redis.call('SETBIT', bits, tonumber(ARGV[3]) - 1, 0)
  redis.call('HSET', meta, 'version', ARGV[1], 'strategy', ARGV[2], 'm', ARGV[3], 'k', ARGV[4],
      'partitions', ARGV[5], 'id', ARGV[6], 'n', ARGV[7], 'fpp', ARGV[8], 'count', 0)
  if extra_field then
    redis.call('HSET', meta, extra_field, extra_value)
  end
  return nil
end

local function absent_without_leftover()
  local t = key_type(bits)
  if t ~= 'none' then
    return redis.error_reply('BLOOMLOST ' .. bits .. ' (a ' .. t .. ') exists without ' .. meta .. ': it was not'
        .. ' made by this library, or the filter lost its metadata (evicted or deleted); delete it (or choose another'
        .. ' name) and build the filter again from the source of truth')
  end
  return nil
end

-- Gives a partition made before ids the id ARGV[6]; returns the id it holds afterwards.
local function id_of(s)
  if s[6] then return s[6] end
  local err = acl_check('HSET', meta, 'id', ARGV[6])
  if err then return nil, err end
  redis.call('HSET', meta, 'id', ARGV[6])
  return ARGV[6], nil
end

if mode == 'probe' then
  if key_type(meta) == 'none' then
    local err = absent_without_leftover()
    if err then return err end
    return {0, '', '', '', '', ''}
  end
  local s, err = existing()
  if err then return err end
  return {1, s[6] or '', s[2], s[8] or '', s[9] or '', creation(s)}
end

if mode == 'single' or mode == 'begin' then
  local flag = mode == 'single' and ARGV[11] or ARGV[12]
  local exclusive = flag == '1'
  if key_type(meta) == 'none' then
    local err = absent_without_leftover()
    if err then return err end
    if flag == 'a' then
      return redis.error_reply('BLOOMNOFILTER no filter at ' .. meta)
    end
    if mode == 'single' then
      err = make()
    else
      err = make('creating', string.format('%.0f', server_now() + tonumber(ARGV[11])))
    end
    if err then return err end
    return {1, ARGV[6], ARGV[2], ARGV[7], ARGV[8], mode == 'begin' and 'busy' or ''}
  end
  local s, err = existing()
  if err then return err end
  if exclusive then
    return redis.error_reply('BLOOMEXISTS ' .. meta .. ' already holds a filter; create-new does not attach')
  end
  local id = s[6]
  if not s[10] then
    id, err = id_of(s)
    if err then return err end
  end
  return {0, id or '', s[2], s[8] or '', s[9] or '', creation(s)}
end

if mode == 'member' then
  if key_type(meta) == 'none' then
    local err = absent_without_leftover()
    if err then return err end
    if ARGV[11] ~= '1' then
      return redis.error_reply('BLOOMLOST ' .. meta .. ' is missing while partition 0 of the filter exists: this'
          .. ' partition was deleted or evicted, and the items in it are lost; delete the filter and build it again'
          .. ' from the source of truth')
    end
    err = make()
    if err then return err end
    return 1
  end
  local s, err = existing()
  if err then return err end
  if s[6] == ARGV[6] then
    return 0
  end
  if not s[6] and ARGV[11] ~= '1' then
    local _, ierr = id_of(s)
    if ierr then return ierr end
    return 0
  end
  if s[6] and s[6] == ARGV[12] then
    err = acl_check('DEL', bits) or acl_check('HSET', meta, 'id', ARGV[6])
    if err then return err end
    redis.call('DEL', bits)
    redis.call('SETBIT', bits, tonumber(ARGV[3]) - 1, 0)
    redis.call('HSET', meta, 'id', ARGV[6], 'count', 0)
    return 0
  end
  return redis.error_reply('BLOOMLOST ' .. meta .. ' holds filter id ' .. tostring(s[6]) .. ', not ' .. ARGV[6]
      .. ' as partition 0 says: it is left from another filter of this name; delete the filter and build it again')
end

if mode == 'complete' then
  local id = redis.call('HGET', meta, 'id')
  if id ~= ARGV[6] then
    return redis.error_reply('BLOOMLOST ' .. meta .. ' holds filter id ' .. tostring(id) .. ', not ' .. ARGV[6]
        .. ': this creation was taken over by another instance after its lease ran out')
  end
  local err = acl_check('HDEL', meta, 'creating')
  if err then return err end
  redis.call('HDEL', meta, 'creating')
  return 1
end

if mode == 'takeover' then
  if key_type(meta) == 'none' then
    return 0
  end
  local s, err = existing()
  if err then return err end
  if s[6] ~= ARGV[12] or creation(s) ~= 'expired' then
    return 0
  end
  err = acl_check('HSET', meta, 'id', ARGV[6])
  if err then return err end
  redis.call('HSET', meta, 'id', ARGV[6], 'creating', string.format('%.0f', server_now() + tonumber(ARGV[11])))
  return 1
end

return redis.error_reply('BLOOMARG unknown create mode ' .. tostring(mode))
