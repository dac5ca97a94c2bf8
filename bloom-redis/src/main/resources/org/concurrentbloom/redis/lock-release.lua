-- lock-release: KEYS = {lock}; ARGV[1] a rebuild's token. Deletes the lock if the token still holds it
-- (compare and delete: a lock that expired and was taken by another rebuild stays). Returns 1 if deleted.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
