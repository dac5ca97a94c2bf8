-- guard-abandon: KEYS = {state, lock, bits, meta} of a generation a rebuild registered and did not
-- publish; ARGV[1] its number, ARGV[2] the rebuild's lock token. Unregisters it if it is still pending,
-- deletes it unless it is live (a publish whose reply was lost), and releases the lock if the token
-- still holds it. Returns 1.
local live, pending = state()
if pending == ARGV[1] then
  redis.call('HDEL', KEYS[1], 'pending')
end
if live ~= ARGV[1] then
  redis.call('DEL', KEYS[3], KEYS[4])
end
if redis.call('GET', KEYS[2]) == ARGV[2] then
  redis.call('DEL', KEYS[2])
end
return 1
