-- lock-renew: KEYS = {lock}; ARGV[1] a rebuild's token, ARGV[2] its lease in milliseconds. Extends the
-- lease if the token still holds the lock. Returns 1, or 0 if the lock was lost (its lease expired).
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
