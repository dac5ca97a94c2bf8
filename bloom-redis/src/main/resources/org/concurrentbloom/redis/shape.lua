-- Prepended to every other script (docs/REDIS.md, "Scripts"); the shared guard's scripts, which come
-- with gen.lua too, use only its functions. For the filter's scripts, KEYS[1] is a partition's bit
-- string and KEYS[2] its metadata hash, in one hash slot, and ARGV[1..5] the shape the client expects:
-- format version, hash strategy, m (bits in this partition), k, partition count.

-- The type of a key ('none' if absent): TYPE answers with a status reply, a table in Lua.
local function key_type(key)
  return redis.call('TYPE', key)['ok']
end

-- nil if the bit string exists as this library made it: a string of exactly ceil(m/8) bytes (create,
-- clear and upload make it so, and adds only set offsets below m, so it never changes length). Else an
-- error reply: gone while its metadata remains (deleted or evicted), or replaced by another value,
-- which an add would write into and a download would return as if it were the filter.
local function check_bits(bits, meta, m)
  local t = key_type(bits)
  if t == 'none' then
    return redis.error_reply('BLOOMMISSING ' .. bits .. ' is gone while ' .. meta .. ' remains')
  end
  if t ~= 'string' then
    return redis.error_reply('BLOOMFOREIGN ' .. bits .. ' holds a ' .. t
        .. ', not the bit string of the filter described by ' .. meta)
  end
  local want = math.floor((tonumber(m) + 7) / 8)
  local len = redis.call('STRLEN', bits)
  if len ~= want then
    return redis.error_reply('BLOOMFOREIGN ' .. bits .. ' holds ' .. len .. ' bytes, not the ' .. want
        .. ' of the m=' .. m .. ' filter described by ' .. meta .. ': it was replaced by other data')
  end
  return nil
end

-- nil if the metadata key is absent or a hash with this library's version field; else an error reply
-- naming the key and what it holds: another application's data, never to be merged into.
local function check_meta_type(meta)
  local t = key_type(meta)
  if t == 'none' then
    return nil
  end
  if t ~= 'hash' then
    return redis.error_reply('BLOOMFOREIGN ' .. meta .. ' holds a ' .. t
        .. ', not a filter\'s metadata hash: it was not made by this library; delete it or choose another name')
  end
  if not redis.call('HGET', meta, 'version') then
    return redis.error_reply('BLOOMFOREIGN ' .. meta .. ' is a hash without this library\'s fields'
        .. ' (no version): it was not made by this library; delete it or choose another name')
  end
  return nil
end

-- 1 if every bit at the offsets ARGV[from..] is set, else 0; stops at the first 0.
local function all_set(bits, from)
  for i = from, #ARGV do
    if redis.call('GETBIT', bits, ARGV[i]) == 0 then
      return 0
    end
  end
  return 1
end

-- check_shape returns an error reply when the stored filter is missing or differs from the client's
-- shape, and nil when they agree. Callers check it before writing anything, so a client attached with
-- a stale shape can neither write bits where they mean something else nor read a "definitely absent"
-- from bits laid out for another shape.
local function check_shape(bits, meta)
  local err = check_meta_type(meta)
  if err then return err end
  local stored = redis.call('HMGET', meta, 'version', 'strategy', 'm', 'k', 'partitions')
  if not stored[1] then
    return redis.error_reply('BLOOMMISSING no filter metadata at ' .. meta)
  end
  if stored[1] ~= ARGV[1] or stored[2] ~= ARGV[2] or stored[3] ~= ARGV[3] or stored[4] ~= ARGV[4]
      or stored[5] ~= ARGV[5] then
    return redis.error_reply('BLOOMSHAPE ' .. meta .. ' holds version=' .. tostring(stored[1])
        .. ' strategy=' .. tostring(stored[2]) .. ' m=' .. tostring(stored[3]) .. ' k=' .. tostring(stored[4])
        .. ' partitions=' .. tostring(stored[5]) .. ' but this client expects version=' .. ARGV[1]
        .. ' strategy=' .. ARGV[2] .. ' m=' .. ARGV[3] .. ' k=' .. ARGV[4] .. ' partitions=' .. ARGV[5])
  end
  return check_bits(bits, meta, ARGV[3])
end
