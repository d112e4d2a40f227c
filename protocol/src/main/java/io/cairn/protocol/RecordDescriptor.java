package io.cairn.protocol;

/**
 * The binary layout of one record, version {@value #PROTOCOL_VERSION}. Little-endian; offsets in
 * bytes from the start of the record; every field is written, none is optional.
 *
 * <pre>
 *  0  +---------+-------------+------------+----------------+
 *     | version | record type | value type | rejection type |  uint8 each
 *  4  +---------+-------------+------------+----------------+
 *     |              intent code (int16)                    |
 *  6  +-----------------------------------------------------+
 *     |           request stream id (int32, -1 none)        |
 * 10  +-----------------------------------------------------+
 *     |           position (int64, -1 not assigned)         |
 * 18  +-----------------------------------------------------+
 *     |           source position (int64, -1 none)          |
 * 26  +-----------------------------------------------------+
 *     |           key (int64, -1 none)                      |
 * 34  +-----------------------------------------------------+
 *     |           timestamp (int64, epoch ms, -1 none)      |
 * 42  +-----------------------------------------------------+
 *     |           request id (int64, -1 none)               |
 * 50  +-----------------------------------------------------+
 *     |           checkpoint id (int64, -1 none)            |
 * 58  +-----------------------------------------------------+
 *     |           rejection reason length (int32)           |
 * 62  +-----------------------------------------------------+
 *     |           value length (int32)                      |
 * 66  +-----------------------------------------------------+
 *     |  rejection reason: UTF-8, reason length bytes      ...
 *     +-----------------------------------------------------+
 *     |  value: value length bytes, see ValueDescriptor    ...
 *     +-----------------------------------------------------+
 * </pre>
 *
 * <ul>
 *   <li>version: {@value #PROTOCOL_VERSION}; decoding rejects any other.
 *   <li>record type, value type, rejection type, intent: the stable codes of {@link RecordType},
 *       {@link ValueType}, {@link RejectionType} and the value type's {@link Intent}; unknown codes
 *       are rejected, and so are combinations {@link RecordMetadata} does not allow.
 *   <li>rejection reason length: {@code [0, }{@value #REJECTION_REASON_MAX_BYTES}{@code ]}; the
 *       reason is strict UTF-8 and empty unless the record is a rejection.
 *   <li>value length: {@code >= 0}, exactly the bytes the value's layout needs.
 * </ul>
 *
 * <p>A record is exactly {@code HEADER_LENGTH + reason length + value length} bytes; decoding
 * rejects missing and trailing bytes alike.
 *
 * <p>Versioning rule: the layout of a version never changes. Adding a field, a code or a wider
 * bound needs a new version; decoders reject versions they do not know.
 */
public final class RecordDescriptor {
  /** The only version this code writes and reads. */
  public static final int PROTOCOL_VERSION = 1;

  /** The largest rejection reason, in bytes of UTF-8. */
  public static final int REJECTION_REASON_MAX_BYTES = 4096;

  public static final int VERSION_OFFSET = 0;
  public static final int RECORD_TYPE_OFFSET = 1;
  public static final int VALUE_TYPE_OFFSET = 2;
  public static final int REJECTION_TYPE_OFFSET = 3;
  public static final int INTENT_OFFSET = 4;
  public static final int REQUEST_STREAM_ID_OFFSET = 6;
  public static final int POSITION_OFFSET = 10;
  public static final int SOURCE_POSITION_OFFSET = 18;
  public static final int KEY_OFFSET = 26;
  public static final int TIMESTAMP_OFFSET = 34;
  public static final int REQUEST_ID_OFFSET = 42;
  public static final int CHECKPOINT_ID_OFFSET = 50;
  public static final int REJECTION_REASON_LENGTH_OFFSET = 58;
  public static final int VALUE_LENGTH_OFFSET = 62;

  /** The fixed part of every record; also the smallest a record can be. */
  public static final int HEADER_LENGTH = 66;

  private RecordDescriptor() {}
}
