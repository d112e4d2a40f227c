package io.cairn.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.cairn.protocol.buffer.BufferReader;
import java.lang.management.ManagementFactory;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Lengths and counts from the input never size an allocation before they are checked against the
 * bytes that are there. Measured with the JVM's per-thread allocation counter: a decoder that
 * trusted a 2^31 length or count would allocate megabytes to gigabytes here, not kilobytes.
 */
final class DecodeAllocationTest {
  /** Generous for a failing decode (exception, stack trace, message), tiny next to the traps. */
  private static final long ALLOCATION_LIMIT_BYTES = 256 * 1024;

  private final com.sun.management.ThreadMXBean threads =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  @BeforeEach
  void requireAllocationCounter() {
    assumeThat(threads.isThreadAllocatedMemorySupported()).isTrue();
    threads.setThreadAllocatedMemoryEnabled(true);
  }

  @Test
  void shouldRejectHugeValueLengthWithoutAllocatingIt() {
    UnsafeBuffer buffer = validHeader(ValueType.ACCOUNT);
    buffer.putInt(RecordDescriptor.VALUE_LENGTH_OFFSET, Integer.MAX_VALUE, BufferReader.BYTE_ORDER);

    assertRejectedWithinAllocationLimit(() -> RecordCodec.decode(buffer, 0, buffer.capacity()));
  }

  @Test
  void shouldRejectHugeRejectionReasonLengthWithoutAllocatingIt() {
    UnsafeBuffer buffer = validHeader(ValueType.ACCOUNT);
    buffer.putInt(
        RecordDescriptor.REJECTION_REASON_LENGTH_OFFSET,
        Integer.MAX_VALUE,
        BufferReader.BYTE_ORDER);

    assertRejectedWithinAllocationLimit(() -> RecordCodec.decode(buffer, 0, buffer.capacity()));
  }

  @Test
  void shouldRejectHugeAccountIdLengthWithoutAllocatingIt() {
    UnsafeBuffer buffer = new UnsafeBuffer(new byte[RecordDescriptor.HEADER_LENGTH + 20]);
    writeHeader(buffer, ValueType.ACCOUNT, 20);
    buffer.putInt(
        RecordDescriptor.HEADER_LENGTH + Long.BYTES, Integer.MAX_VALUE, BufferReader.BYTE_ORDER);

    assertRejectedWithinAllocationLimit(() -> RecordCodec.decode(buffer, 0, buffer.capacity()));
  }

  @Test
  void shouldRejectHugeRecordCountWithoutAllocatingForIt() {
    // A naive decoder would allocate an array of 2^31 - 1 references for this 40-byte input.
    UnsafeBuffer buffer = new UnsafeBuffer(new byte[40]);
    buffer.putByte(0, (byte) RecordDescriptor.PROTOCOL_VERSION);
    buffer.putInt(
        RecordBatchDescriptor.RECORD_COUNT_OFFSET, Integer.MAX_VALUE, BufferReader.BYTE_ORDER);

    assertRejectedWithinAllocationLimit(
        () -> RecordBatchCodec.decode(buffer, 0, buffer.capacity()));
  }

  @Test
  void shouldBoundRecordCountByTheBytesLeft() {
    // 20 million records claimed in 1 MiB: a decoder trusting the count would allocate ~80 MB.
    UnsafeBuffer buffer = new UnsafeBuffer(new byte[1 << 20]);
    buffer.putByte(0, (byte) RecordDescriptor.PROTOCOL_VERSION);
    buffer.putInt(RecordBatchDescriptor.RECORD_COUNT_OFFSET, 20_000_000, BufferReader.BYTE_ORDER);

    assertRejectedWithinAllocationLimit(
        () -> RecordBatchCodec.decode(buffer, 0, buffer.capacity()));
  }

  private void assertRejectedWithinAllocationLimit(Runnable decode) {
    // Warm up once so class loading and first-call allocations are not counted.
    assertThatThrownBy(decode::run).isInstanceOf(ProtocolException.class);

    long before = threads.getCurrentThreadAllocatedBytes();
    Throwable thrown = null;
    try {
      decode.run();
    } catch (ProtocolException e) {
      thrown = e;
    }
    long allocatedBytes = threads.getCurrentThreadAllocatedBytes() - before;

    assertThat(thrown).isInstanceOf(ProtocolException.class);
    assertThat(allocatedBytes).isLessThan(ALLOCATION_LIMIT_BYTES);
  }

  private static UnsafeBuffer validHeader(ValueType valueType) {
    UnsafeBuffer buffer = new UnsafeBuffer(new byte[RecordDescriptor.HEADER_LENGTH + 32]);
    writeHeader(buffer, valueType, 32);
    return buffer;
  }

  private static void writeHeader(
      MutableDirectBuffer buffer, ValueType valueType, int valueLength) {
    buffer.putByte(RecordDescriptor.VERSION_OFFSET, (byte) RecordDescriptor.PROTOCOL_VERSION);
    buffer.putByte(RecordDescriptor.RECORD_TYPE_OFFSET, (byte) RecordType.COMMAND.code());
    buffer.putByte(RecordDescriptor.VALUE_TYPE_OFFSET, (byte) valueType.code());
    buffer.putByte(RecordDescriptor.REJECTION_TYPE_OFFSET, (byte) RejectionType.NONE.code());
    buffer.putShort(RecordDescriptor.INTENT_OFFSET, (short) 0, BufferReader.BYTE_ORDER);
    buffer.putInt(RecordDescriptor.REJECTION_REASON_LENGTH_OFFSET, 0, BufferReader.BYTE_ORDER);
    buffer.putInt(RecordDescriptor.VALUE_LENGTH_OFFSET, valueLength, BufferReader.BYTE_ORDER);
  }
}
