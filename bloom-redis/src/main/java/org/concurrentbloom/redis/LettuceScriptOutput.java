package org.concurrentbloom.redis;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A script's reply as the Jedis adapter returns it: an integer as Long, a string as byte[], an array as
 * a List of those (nested as sent), nil as null. Lettuce's own OBJECT and MULTI outputs wrap an integer
 * reply in a list, which cannot be told apart from a one-element array; the guard's scripts return
 * either an answer or the state, so the shape must survive. Arrays are closed by counting their
 * elements, not by the parser's depth callbacks. One per command, filled by Lettuce's event-loop thread
 * and read once the command completes.
 */
final class LettuceScriptOutput extends CommandOutput<byte[], byte[], Object> {
  /** An open array and how many elements it still expects. */
  private static final class Frame {
    final List<Object> list;
    int remaining;

    Frame(List<Object> list, int remaining) {
      this.list = list;
      this.remaining = remaining;
    }
  }

  private final Deque<Frame> open = new ArrayDeque<>();

  LettuceScriptOutput() {
    super(ByteArrayCodec.INSTANCE, null);
  }

  @Override
  public void set(long integer) {
    value(integer);
  }

  @Override
  public void set(ByteBuffer bytes) {
    value(bytes == null ? null : copy(bytes));
  }

  @Override
  public void setSingle(ByteBuffer bytes) {
    value(bytes == null ? null : copy(bytes));
  }

  @Override
  public void set(boolean b) {
    value(b ? 1L : null); // RESP3 booleans: Lua true is 1, false is nil, as in RESP2
  }

  @Override
  public void set(double d) {
    value(copy(ByteBuffer.wrap(Double.toString(d).getBytes(java.nio.charset.StandardCharsets.US_ASCII))));
  }

  @Override
  public void multi(int count) {
    if (count < 0) {
      value(null); // a nil array
      return;
    }
    List<Object> list = new ArrayList<>(count);
    if (open.isEmpty()) {
      output = list;
    } else {
      open.peek().list.add(list);
    }
    open.push(new Frame(list, count));
    closeFinished();
  }

  private void value(Object v) {
    if (open.isEmpty()) {
      output = v;
      return;
    }
    Frame top = open.peek();
    top.list.add(v);
    top.remaining--;
    closeFinished();
  }

  /** Closes every array that has all its elements; each counts as one element of the one around it. */
  private void closeFinished() {
    while (!open.isEmpty() && open.peek().remaining == 0) {
      open.pop();
      if (!open.isEmpty()) {
        open.peek().remaining--;
      }
    }
  }

  private static byte[] copy(ByteBuffer bytes) {
    byte[] b = new byte[bytes.remaining()];
    bytes.get(b);
    return b;
  }
}
