package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.BooleanType;
import io.tern.engine.record.sbe.MessageHeaderEncoder;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The fields of one value message, each declared once, in the schema's order: its name in the
 * schema ({@code tern-records.xml}) and the Java field that holds it. Encoding, decoding and
 * copying all follow that one list, so a field cannot be encoded and then forgotten by decode or
 * copy.
 *
 * <p>The generated SBE codec still writes and reads the bytes: its accessors for each name are
 * found once, when the value class is loaded, and joined with the value's accessors into one method
 * handle per direction (encode, decode, copy) that runs the fields in turn. A handle invoked often
 * is compiled for itself, so its fields run as straight-line code would; a value encodes to exactly
 * the bytes its hand-written mapping wrote, and a name the codec does not have fails the class's
 * loading.
 *
 * <p>Immutable and shared by every instance of a value class ({@link MappedValue}); the encoder and
 * decoder flyweights are each instance's own. Nothing is allocated per encode, decode or copy
 * beyond what the fields themselves need (decoded strings and byte arrays).
 *
 * @param <V> the value class
 */
public final class ValueFields<V> {
  /** Reads a long field of a value. */
  @FunctionalInterface
  public interface LongGet<T> {
    long get(T from);
  }

  /** Writes a long field of a value. */
  @FunctionalInterface
  public interface LongSet<T> {
    void set(T to, long value);
  }

  /** Reads an int field of a value. */
  @FunctionalInterface
  public interface IntGet<T> {
    int get(T from);
  }

  /** Writes an int field of a value. */
  @FunctionalInterface
  public interface IntSet<T> {
    void set(T to, int value);
  }

  /** Reads a boolean field of a value. */
  @FunctionalInterface
  public interface BooleanGet<T> {
    boolean get(T from);
  }

  /** Writes a boolean field of a value. */
  @FunctionalInterface
  public interface BooleanSet<T> {
    void set(T to, boolean value);
  }

  /** Reads any other field of a value (a string, bytes). */
  @FunctionalInterface
  public interface Get<T, X> {
    X get(T from);
  }

  /** Writes any other field of a value. */
  @FunctionalInterface
  public interface Set<T, X> {
    void set(T to, X value);
  }

  private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
  private static final MethodType STEP =
      MethodType.methodType(void.class, Object.class, Object.class);

  private final int templateId;
  private final MethodHandle newEncoder;
  private final MethodHandle newDecoder;
  private final MethodHandle wrapEncoder;
  private final MethodHandle encodedLength;
  private final MethodHandle wrapDecoder;

  /** (encoder, value): every field into the encoder, in order. */
  private final MethodHandle encodeFields;

  /** (value, decoder): every field from the decoder, in order. */
  private final MethodHandle decodeFields;

  /** (to, from). */
  private final MethodHandle copyFields;

  private ValueFields(Builder<V> builder) {
    Class<?> encoder = builder.encoder;
    Class<?> decoder = builder.decoder;
    this.templateId = builder.templateId;
    try {
      this.newEncoder =
          LOOKUP
              .findConstructor(encoder, MethodType.methodType(void.class))
              .asType(MethodType.methodType(Object.class));
      this.newDecoder =
          LOOKUP
              .findConstructor(decoder, MethodType.methodType(void.class))
              .asType(MethodType.methodType(Object.class));
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException(encoder + " is not an SBE message codec", e);
    }
    this.wrapEncoder =
        codec(
            encoder,
            "wrapAndApplyHeader",
            MethodType.methodType(
                encoder, MutableDirectBuffer.class, int.class, MessageHeaderEncoder.class),
            MethodType.methodType(
                void.class,
                Object.class,
                MutableDirectBuffer.class,
                int.class,
                MessageHeaderEncoder.class));
    this.encodedLength =
        codec(
            encoder,
            "encodedLength",
            MethodType.methodType(int.class),
            MethodType.methodType(int.class, Object.class));
    this.wrapDecoder =
        codec(
            decoder,
            "wrap",
            MethodType.methodType(decoder, DirectBuffer.class, int.class, int.class, int.class),
            MethodType.methodType(
                void.class, Object.class, DirectBuffer.class, int.class, int.class, int.class));
    this.encodeFields = sequence(builder.encodeSteps);
    this.decodeFields = sequence(builder.decodeSteps);
    this.copyFields = sequence(builder.copySteps);
  }

  /**
   * Starts the list of a message's fields: the value class and the generated codec ({@code
   * XxxEncoder.class, XxxDecoder.class}).
   */
  public static <V> Builder<V> of(Class<V> value, Class<?> encoder, Class<?> decoder) {
    return new Builder<>(encoder, decoder);
  }

  int templateId() {
    return templateId;
  }

  Object newEncoder() {
    try {
      return (Object) newEncoder.invokeExact();
    } catch (Throwable e) {
      throw failed(e);
    }
  }

  Object newDecoder() {
    try {
      return (Object) newDecoder.invokeExact();
    } catch (Throwable e) {
      throw failed(e);
    }
  }

  /** Writes {@code value}, header included, at {@code offset}; returns the bytes written. */
  int encode(
      V value,
      Object encoder,
      MessageHeaderEncoder header,
      MutableDirectBuffer buffer,
      int offset) {
    try {
      wrapEncoder.invokeExact(encoder, buffer, offset, header);
      encodeFields.invokeExact(encoder, (Object) value);
      return MessageHeaderEncoder.ENCODED_LENGTH + (int) encodedLength.invokeExact(encoder);
    } catch (Throwable e) {
      throw failed(e);
    }
  }

  /** Reads {@code value} from the message whose block starts at {@code offset}. */
  void decode(
      V value, Object decoder, DirectBuffer buffer, int offset, int blockLength, int version) {
    try {
      wrapDecoder.invokeExact(decoder, buffer, offset, blockLength, version);
      decodeFields.invokeExact((Object) value, decoder);
    } catch (Throwable e) {
      throw failed(e);
    }
  }

  /** Every field of {@code from} into {@code to} (arrays and strings are shared, not copied). */
  void copy(V from, V to) {
    try {
      copyFields.invokeExact((Object) to, (Object) from);
    } catch (Throwable e) {
      throw failed(e);
    }
  }

  private static RuntimeException failed(Throwable e) {
    if (e instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (e instanceof Error error) {
      throw error;
    }
    return new IllegalStateException(e);
  }

  /** The fields, in the schema's order. */
  public static final class Builder<V> {
    private final Class<?> encoder;
    private final Class<?> decoder;
    private final int templateId;
    private final List<MethodHandle> encodeSteps = new ArrayList<>();
    private final List<MethodHandle> decodeSteps = new ArrayList<>();
    private final List<MethodHandle> copySteps = new ArrayList<>();

    private Builder(Class<?> encoder, Class<?> decoder) {
      this.encoder = encoder;
      this.decoder = decoder;
      try {
        this.templateId = encoder.getField("TEMPLATE_ID").getInt(null);
      } catch (ReflectiveOperationException e) {
        throw new IllegalArgumentException(encoder + " is not an SBE message encoder", e);
      }
    }

    /** An int64 field named {@code name} in the schema. */
    public Builder<V> int64(String name, LongGet<V> get, LongSet<V> set) {
      return add(
          setter(encoder, name, long.class),
          getter(decoder, name, long.class),
          bound(LONG_GET, get),
          bound(LONG_SET, set));
    }

    /**
     * An int64 field added to the schema after the first version: a value written before it reads
     * {@code ifAbsent} (the codec reads the field's null value there).
     */
    public Builder<V> int64(String name, long ifAbsent, LongGet<V> get, LongSet<V> set) {
      long absent;
      try {
        absent = (long) decoder.getMethod(name + "NullValue").invoke(null);
      } catch (ReflectiveOperationException e) {
        throw new IllegalArgumentException(decoder.getSimpleName() + " has no " + name, e);
      }
      MethodHandle read =
          MethodHandles.filterReturnValue(
              getter(decoder, name, long.class),
              MethodHandles.insertArguments(OR_ELSE, 1, absent, ifAbsent));
      return add(
          setter(encoder, name, long.class), read, bound(LONG_GET, get), bound(LONG_SET, set));
    }

    /** A uint8 field named {@code name} in the schema: a code (an enum's ordinal). */
    public Builder<V> uint8(String name, IntGet<V> get, IntSet<V> set) {
      return add(
          MethodHandles.filterArguments(setter(encoder, name, short.class), 1, TO_SHORT),
          getter(decoder, name, short.class).asType(MethodType.methodType(int.class, Object.class)),
          bound(INT_GET, get),
          bound(INT_SET, set));
    }

    /** An int32 field named {@code name} in the schema. */
    public Builder<V> int32(String name, IntGet<V> get, IntSet<V> set) {
      return add(
          setter(encoder, name, int.class),
          getter(decoder, name, int.class),
          bound(INT_GET, get),
          bound(INT_SET, set));
    }

    /** A {@link BooleanType} field named {@code name} in the schema, a boolean in the value. */
    public Builder<V> bool(String name, BooleanGet<V> get, BooleanSet<V> set) {
      return add(
          MethodHandles.filterArguments(setter(encoder, name, BooleanType.class), 1, TO_BOOLEAN),
          MethodHandles.filterReturnValue(getter(decoder, name, BooleanType.class), IS_TRUE),
          bound(BOOLEAN_GET, get),
          bound(BOOLEAN_SET, set));
    }

    /** Variable-length UTF-8 text named {@code name} in the schema. */
    public Builder<V> string(String name, Get<V, String> get, Set<V, String> set) {
      return add(
          setter(encoder, name, String.class)
              .asType(MethodType.methodType(void.class, Object.class, Object.class)),
          getter(decoder, name, String.class)
              .asType(MethodType.methodType(Object.class, Object.class)),
          bound(GET, get),
          bound(SET, set));
    }

    /** Variable-length bytes named {@code name} in the schema. */
    public Builder<V> bytes(String name, Get<V, byte[]> get, Set<V, byte[]> set) {
      return bytes(name, get, set, null);
    }

    /**
     * Variable-length bytes named {@code name} in the schema that the value holds otherwise: {@code
     * get} and {@code set} convert, {@code copy} copies what the value holds.
     */
    public Builder<V> bytes(
        String name, Get<V, byte[]> get, Set<V, byte[]> set, BiConsumer<V, V> copy) {
      String capitalized = Character.toUpperCase(name.charAt(0)) + name.substring(1);
      // put(encoder, bytes) = putName(encoder, bytes, 0, bytes.length)
      MethodHandle putRange =
          codec(
              encoder,
              "put" + capitalized,
              MethodType.methodType(encoder, byte[].class, int.class, int.class),
              MethodType.methodType(void.class, Object.class, byte[].class, int.class, int.class));
      MethodHandle put =
          MethodHandles.permuteArguments(
              MethodHandles.filterArguments(
                  MethodHandles.insertArguments(putRange, 2, 0), 2, BYTES_LENGTH),
              MethodType.methodType(void.class, Object.class, byte[].class),
              0,
              1,
              1);
      // read(decoder) = getName(decoder, new byte[nameLength(decoder)], 0, length)
      MethodHandle getRange =
          codec(
              decoder,
              "get" + capitalized,
              MethodType.methodType(int.class, byte[].class, int.class, int.class),
              MethodType.methodType(void.class, Object.class, byte[].class, int.class, int.class));
      MethodHandle fill =
          MethodHandles.permuteArguments(
              MethodHandles.filterArguments(
                  MethodHandles.insertArguments(getRange, 2, 0), 2, BYTES_LENGTH),
              MethodType.methodType(void.class, Object.class, byte[].class),
              0,
              1,
              1);
      MethodHandle fillAndReturn =
          MethodHandles.foldArguments(
              MethodHandles.dropArguments(MethodHandles.identity(byte[].class), 1, Object.class),
              MethodHandles.permuteArguments(
                  fill, MethodType.methodType(void.class, byte[].class, Object.class), 1, 0));
      MethodHandle allocate =
          MethodHandles.filterReturnValue(
              getter(decoder, name + "Length", int.class),
              MethodHandles.arrayConstructor(byte[].class));
      MethodHandle read = MethodHandles.foldArguments(fillAndReturn, allocate);
      MethodHandle getBytes =
          bound(GET, get).asType(MethodType.methodType(byte[].class, Object.class));
      MethodHandle setBytes =
          bound(SET, set).asType(MethodType.methodType(void.class, Object.class, byte[].class));
      add(put, read, getBytes, setBytes);
      if (copy != null) {
        copySteps.set(
            copySteps.size() - 1,
            MethodHandles.permuteArguments(bound(BI_CONSUMER, copy), STEP, 1, 0));
      }
      return this;
    }

    public ValueFields<V> build() {
      return new ValueFields<>(this);
    }

    /**
     * One field from its four accessors: {@code put(encoder, x)}, {@code read(decoder) -> x},
     * {@code get(value) -> x}, {@code set(value, x)}.
     */
    private Builder<V> add(
        MethodHandle put, MethodHandle read, MethodHandle get, MethodHandle set) {
      encodeSteps.add(MethodHandles.filterArguments(put, 1, get)); // (encoder, value)
      decodeSteps.add(MethodHandles.filterArguments(set, 1, read)); // (value, decoder)
      copySteps.add(MethodHandles.filterArguments(set, 1, get)); // (to, from)
      return this;
    }

    /** (codec, x): {@code owner.name(x)}, its result dropped. */
    private static MethodHandle setter(Class<?> owner, String name, Class<?> type) {
      return codec(
          owner,
          name,
          MethodType.methodType(owner, type),
          MethodType.methodType(void.class, Object.class, type));
    }

    /** (codec) -> x: {@code owner.name()}. */
    private static MethodHandle getter(Class<?> owner, String name, Class<?> type) {
      return codec(
          owner, name, MethodType.methodType(type), MethodType.methodType(type, Object.class));
    }
  }

  /**
   * {@code owner}'s public method {@code name} of {@code type}, taking any receiver as {@code as}.
   */
  private static MethodHandle codec(Class<?> owner, String name, MethodType type, MethodType as) {
    try {
      return LOOKUP.findVirtual(owner, name, type).asType(as);
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException(
          owner.getSimpleName() + " has no " + name + type + " for a value field", e);
    }
  }

  /** Runs each (a, b) step in turn. */
  private static MethodHandle sequence(List<MethodHandle> steps) {
    MethodHandle all = MethodHandles.empty(STEP);
    for (int i = steps.size() - 1; i >= 0; i--) {
      all = MethodHandles.foldArguments(all, steps.get(i).asType(STEP));
    }
    return all;
  }

  private static MethodHandle bound(MethodHandle accessor, Object lambda) {
    return accessor.bindTo(lambda);
  }

  private static final MethodHandle LONG_GET = sam(LongGet.class, "get", long.class, Object.class);
  private static final MethodHandle LONG_SET =
      sam(LongSet.class, "set", void.class, Object.class, long.class);
  private static final MethodHandle INT_GET = sam(IntGet.class, "get", int.class, Object.class);
  private static final MethodHandle INT_SET =
      sam(IntSet.class, "set", void.class, Object.class, int.class);
  private static final MethodHandle BOOLEAN_GET =
      sam(BooleanGet.class, "get", boolean.class, Object.class);
  private static final MethodHandle BOOLEAN_SET =
      sam(BooleanSet.class, "set", void.class, Object.class, boolean.class);
  private static final MethodHandle GET = sam(Get.class, "get", Object.class, Object.class);
  private static final MethodHandle SET =
      sam(Set.class, "set", void.class, Object.class, Object.class);
  private static final MethodHandle BI_CONSUMER =
      sam(BiConsumer.class, "accept", void.class, Object.class, Object.class);
  private static final MethodHandle TO_SHORT = helper("toShort", short.class, int.class);
  private static final MethodHandle TO_BOOLEAN =
      helper("toBooleanType", BooleanType.class, boolean.class);
  private static final MethodHandle IS_TRUE = helper("isTrue", boolean.class, BooleanType.class);
  private static final MethodHandle OR_ELSE =
      helper("orElse", long.class, long.class, long.class, long.class);
  private static final MethodHandle BYTES_LENGTH = MethodHandles.arrayLength(byte[].class);

  private static MethodHandle sam(
      Class<?> type, String name, Class<?> returns, Class<?>... parameters) {
    try {
      return LOOKUP.findVirtual(type, name, MethodType.methodType(returns, parameters));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private static MethodHandle helper(String name, Class<?> returns, Class<?>... parameters) {
    try {
      return LOOKUP.findStatic(ValueFields.class, name, MethodType.methodType(returns, parameters));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private static short toShort(int code) {
    return (short) code;
  }

  private static BooleanType toBooleanType(boolean value) {
    return value ? BooleanType.TRUE : BooleanType.FALSE;
  }

  private static boolean isTrue(BooleanType value) {
    return value == BooleanType.TRUE;
  }

  private static long orElse(long value, long absent, long ifAbsent) {
    return value == absent ? ifAbsent : value;
  }
}
