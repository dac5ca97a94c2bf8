-- Prepended to the shared guard's scripts after shape.lua (docs/REDIS.md, "Shared guard"). The guard G keeps, under the
-- hash tag {G} (one slot, so one script may touch them all): the state hash {G}:state, whose fields
-- live and pending hold generation numbers (absent: none) and next the last number issued; the lock
-- {G}:lock; and generation N as the bit string {G}:gN:bits and the hash {G}:gN:meta, laid out like a
-- one-partition filter (shape.lua) plus the guard's fields keys, deletes, grow, shrink and watermark.
-- Scripts that read the state take it as KEYS[1]. Every key a script touches is one of its KEYS.

-- The live and pending generation numbers now, as strings; '0' for none.
local function state()
  local s = redis.call('HMGET', KEYS[1], 'live', 'pending')
  return s[1] or '0', s[2] or '0'
end

-- The generation at bits and meta as the client expects it (its m, k and id, which the client read with
-- its shape: the offsets it computed address the right bits only if these hold), with every counter an
-- integer: {count, keys, deletes, n} as numbers, or nil and an error reply.
local function check_gen(bits, meta, m, k, id)
  local stored = redis.call('HMGET', meta, 'm', 'k', 'id', 'count', 'keys', 'deletes', 'n')
  if not stored[1] then
    return nil, redis.error_reply('BLOOMMISSING no generation metadata at ' .. meta)
  end
  if stored[1] ~= m or stored[2] ~= k or (stored[3] or '') ~= id then
    return nil, redis.error_reply('BLOOMSHAPE ' .. meta .. ' holds m=' .. stored[1] .. ' k=' .. tostring(stored[2])
        .. ' id=' .. tostring(stored[3]) .. ' but this client expects m=' .. m .. ' k=' .. k .. ' id=' .. id)
  end
  local out = {}
  local names = {'count', 'keys', 'deletes', 'n'}
  for i = 1, 4 do
    local v = strict_int(stored[i + 3] or '0')
    if not v then
      return nil, bad_field(meta, names[i], stored[i + 3], 'a decimal integer in [0, 2^53)')
    end
    out[i] = v
  end
  local err = check_bits(bits, meta, m)
  if err then return nil, err end
  return out, nil
end

-- The counters of a generation's metadata, checked as check_gen does, without its bits and shape.
local function gen_counters(meta)
  local stored = redis.call('HMGET', meta, 'keys', 'deletes', 'n')
  local out = {}
  local names = {'keys', 'deletes', 'n'}
  for i = 1, 3 do
    local v = strict_int(stored[i] or '0')
    if not v then
      return nil, bad_field(meta, names[i], stored[i], 'a decimal integer in [0, 2^53)')
    end
    out[i] = v
  end
  return out, nil
end
