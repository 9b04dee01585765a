-- A game created but not kept (an open game past its owner's most open games): its keys go,
-- unannounced (nobody knew it). KEYS: all of its keys.
redis.call('DEL', unpack(KEYS))
return 1
