-- Prepended to every other script (docs/REDIS.md, "Scripts"); the shared guard's scripts, which come
-- with gen.lua too, use only its functions. For the filter's scripts, KEYS[1] is a partition's bit
-- string and KEYS[2] its metadata hash, in one hash slot, and ARGV[1..5] the shape the client expects:
-- format version, hash strategy, m (bits in this partition), k, partition count.

-- nil if the bit string exists; else an error reply (its metadata remains: it was deleted or evicted).
local function check_bits(bits, meta)
  if redis.call('EXISTS', bits) == 0 then
    return redis.error_reply('BLOOMMISSING ' .. bits .. ' is gone while ' .. meta .. ' remains')
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
  return check_bits(bits, meta)
end
