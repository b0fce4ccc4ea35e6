package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.BooleanType;
import io.tern.engine.record.sbe.MessageHeaderEncoder;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The fields of one value message, each declared once, in the schema's order: its name in the
 * schema ({@code tern-records.xml}) and the Java field that holds it. Encoding, decoding and
 * copying all follow that one list, so a field cannot be encoded and then forgotten by decode or
 * copy.
 *
 * <p>The generated SBE codec still writes and reads the bytes: its accessors for each name are
 * found once, when the value class is loaded, and bound to small functional objects (as method
 * references are), so a value encodes to exactly the bytes its hand-written mapping wrote, nothing
 * is looked up or boxed per call, and a name the codec does not have fails the class's loading.
 *
 * <p>Immutable and shared by every instance of a value class ({@link MappedValue}); the encoder and
 * decoder flyweights are each instance's own. Nothing is allocated per encode, decode or copy
 * beyond what the fields themselves need (decoded strings and byte arrays).
 *
 * @param <V> the value class
 */
public final class ValueFields<V> {
  /** Reads a long field of a value, or of a decoder. */
  @FunctionalInterface
  public interface LongGet<T> {
    long get(T from);
  }

  /** Writes a long field of a value, or into an encoder. */
  @FunctionalInterface
  public interface LongSet<T> {
    void set(T to, long value);
  }

  /** Reads an int field of a value, or of a decoder. */
  @FunctionalInterface
  public interface IntGet<T> {
    int get(T from);
  }

  /** Writes an int field of a value, or into an encoder. */
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

  /** Reads any other field of a value (a string, bytes), or of a decoder. */
  @FunctionalInterface
  public interface Get<T, X> {
    X get(T from);
  }

  /** Writes any other field of a value, or into an encoder. */
  @FunctionalInterface
  public interface Set<T, X> {
    void set(T to, X value);
  }

  /** {@code XxxEncoder#name(short)}: a uint8 code. */
  @FunctionalInterface
  interface ShortSet {
    void set(Object encoder, short value);
  }

  /** {@code XxxDecoder#name()}: a uint8 code. */
  @FunctionalInterface
  interface ShortGet {
    short get(Object decoder);
  }

  /** One field: how it is encoded, decoded and copied. */
  public interface Field<V> {
    void encode(V value, Object encoder);

    void decode(Object decoder, V value);

    void copy(V from, V to);
  }

  /** {@code XxxEncoder#wrapAndApplyHeader}. */
  @FunctionalInterface
  interface EncoderWrap {
    Object wrap(
        Object encoder, MutableDirectBuffer buffer, int offset, MessageHeaderEncoder header);
  }

  /** {@code XxxDecoder#wrap}. */
  @FunctionalInterface
  interface DecoderWrap {
    Object wrap(Object decoder, DirectBuffer buffer, int offset, int blockLength, int version);
  }

  /** {@code XxxEncoder#putName(byte[], int, int)}. */
  @FunctionalInterface
  interface PutBytes {
    Object put(Object encoder, byte[] source, int offset, int length);
  }

  /** {@code XxxDecoder#getName(byte[], int, int)}. */
  @FunctionalInterface
  interface GetBytes {
    int get(Object decoder, byte[] target, int offset, int length);
  }

  private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

  private final int templateId;
  private final Supplier<Object> newEncoder;
  private final Supplier<Object> newDecoder;
  private final EncoderWrap wrapEncoder;
  private final IntGet<Object> encodedLength;
  private final DecoderWrap wrapDecoder;
  private final Field<V>[] fields;

  private ValueFields(Builder<V> builder) {
    Class<?> encoder = builder.encoder;
    Class<?> decoder = builder.decoder;
    this.templateId = builder.templateId;
    this.newEncoder = constructor(encoder);
    this.newDecoder = constructor(decoder);
    this.wrapEncoder =
        bind(
            EncoderWrap.class,
            encoder,
            "wrapAndApplyHeader",
            MethodType.methodType(
                encoder, MutableDirectBuffer.class, int.class, MessageHeaderEncoder.class));
    this.encodedLength =
        bind(IntGet.class, encoder, "encodedLength", MethodType.methodType(int.class));
    this.wrapDecoder =
        bind(
            DecoderWrap.class,
            decoder,
            "wrap",
            MethodType.methodType(decoder, DirectBuffer.class, int.class, int.class, int.class));
    @SuppressWarnings("unchecked")
    Field<V>[] array = builder.fields.toArray(new Field[0]);
    this.fields = array;
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
    return newEncoder.get();
  }

  Object newDecoder() {
    return newDecoder.get();
  }

  /** Writes {@code value}, header included, at {@code offset}; returns the bytes written. */
  int encode(
      V value,
      Object encoder,
      MessageHeaderEncoder header,
      MutableDirectBuffer buffer,
      int offset) {
    wrapEncoder.wrap(encoder, buffer, offset, header);
    for (Field<V> field : fields) {
      field.encode(value, encoder);
    }
    return MessageHeaderEncoder.ENCODED_LENGTH + encodedLength.get(encoder);
  }

  /** Reads {@code value} from the message whose block starts at {@code offset}. */
  void decode(
      V value, Object decoder, DirectBuffer buffer, int offset, int blockLength, int version) {
    wrapDecoder.wrap(decoder, buffer, offset, blockLength, version);
    for (Field<V> field : fields) {
      field.decode(decoder, value);
    }
  }

  /** Every field of {@code from} into {@code to} (arrays and strings are shared, not copied). */
  void copy(V from, V to) {
    for (Field<V> field : fields) {
      field.copy(from, to);
    }
  }

  /** The fields, in the schema's order. */
  public static final class Builder<V> {
    private final Class<?> encoder;
    private final Class<?> decoder;
    private final int templateId;
    private final List<Field<V>> fields = new ArrayList<>();

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
      LongSet<Object> put = bind(LongSet.class, encoder, name, encoder, long.class);
      LongGet<Object> read = bind(LongGet.class, decoder, name, MethodType.methodType(long.class));
      return custom(
          new Field<>() {
            @Override
            public void encode(V value, Object encoder) {
              put.set(encoder, get.get(value));
            }

            @Override
            public void decode(Object decoder, V value) {
              set.set(value, read.get(decoder));
            }

            @Override
            public void copy(V from, V to) {
              set.set(to, get.get(from));
            }
          });
    }

    /**
     * An int64 field added to the schema after the first version: a value written before it reads
     * {@code ifAbsent} (the codec reads the field's null value there).
     */
    public Builder<V> int64(String name, long ifAbsent, LongGet<V> get, LongSet<V> set) {
      LongSet<Object> put = bind(LongSet.class, encoder, name, encoder, long.class);
      LongGet<Object> read = bind(LongGet.class, decoder, name, MethodType.methodType(long.class));
      long absent;
      try {
        absent = (long) decoder.getMethod(name + "NullValue").invoke(null);
      } catch (ReflectiveOperationException e) {
        throw new IllegalArgumentException(decoder.getSimpleName() + " has no " + name, e);
      }
      return custom(
          new Field<>() {
            @Override
            public void encode(V value, Object encoder) {
              put.set(encoder, get.get(value));
            }

            @Override
            public void decode(Object decoder, V value) {
              long written = read.get(decoder);
              set.set(value, written == absent ? ifAbsent : written);
            }

            @Override
            public void copy(V from, V to) {
              set.set(to, get.get(from));
            }
          });
    }

    /** A uint8 field named {@code name} in the schema: a code (an enum's ordinal). */
    public Builder<V> uint8(String name, IntGet<V> get, IntSet<V> set) {
      ShortSet put = bind(ShortSet.class, encoder, name, encoder, short.class);
      ShortGet read = bind(ShortGet.class, decoder, name, MethodType.methodType(short.class));
      return custom(
          new Field<>() {
            @Override
            public void encode(V value, Object encoder) {
              put.set(encoder, (short) get.get(value));
            }

            @Override
            public void decode(Object decoder, V value) {
              set.set(value, read.get(decoder));
            }

            @Override
            public void copy(V from, V to) {
              set.set(to, get.get(from));
            }
          });
    }

    /** An int32 field named {@code name} in the schema. */
    public Builder<V> int32(String name, IntGet<V> get, IntSet<V> set) {
      IntSet<Object> put = bind(IntSet.class, encoder, name, encoder, int.class);
      IntGet<Object> read = bind(IntGet.class, decoder, name, MethodType.methodType(int.class));
      return custom(
          new Field<>() {
            @Override
            public void encode(V value, Object encoder) {
              put.set(encoder, get.get(value));
            }

            @Override
            public void decode(Object decoder, V value) {
              set.set(value, read.get(decoder));
            }

            @Override
            public void copy(V from, V to) {
              set.set(to, get.get(from));
            }
          });
    }

    /** A {@link BooleanType} field named {@code name} in the schema, a boolean in the value. */
    public Builder<V> bool(String name, BooleanGet<V> get, BooleanSet<V> set) {
      Set<Object, BooleanType> put = bind(Set.class, encoder, name, encoder, BooleanType.class);
      Get<Object, BooleanType> read =
          bind(Get.class, decoder, name, MethodType.methodType(BooleanType.class));
      return custom(
          new Field<>() {
            @Override
            public void encode(V value, Object encoder) {
              put.set(encoder, get.get(value) ? BooleanType.TRUE : BooleanType.FALSE);
            }

            @Override
            public void decode(Object decoder, V value) {
              set.set(value, read.get(decoder) == BooleanType.TRUE);
            }

            @Override
            public void copy(V from, V to) {
              set.set(to, get.get(from));
            }
          });
    }

    /** Variable-length UTF-8 text named {@code name} in the schema. */
    public Builder<V> string(String name, Get<V, String> get, Set<V, String> set) {
      Set<Object, String> put = bind(Set.class, encoder, name, encoder, String.class);
      Get<Object, String> read =
          bind(Get.class, decoder, name, MethodType.methodType(String.class));
      return custom(
          new Field<>() {
            @Override
            public void encode(V value, Object encoder) {
              put.set(encoder, get.get(value));
            }

            @Override
            public void decode(Object decoder, V value) {
              set.set(value, read.get(decoder));
            }

            @Override
            public void copy(V from, V to) {
              set.set(to, get.get(from));
            }
          });
    }

    /** Variable-length bytes named {@code name} in the schema. */
    public Builder<V> bytes(String name, Get<V, byte[]> get, Set<V, byte[]> set) {
      return bytes(name, get, set, (from, to) -> set.set(to, get.get(from)));
    }

    /**
     * Variable-length bytes named {@code name} in the schema that the value holds otherwise: {@code
     * get} and {@code set} convert, {@code copy} copies what the value holds.
     */
    public Builder<V> bytes(
        String name, Get<V, byte[]> get, Set<V, byte[]> set, BiConsumer<V, V> copy) {
      String capitalized = Character.toUpperCase(name.charAt(0)) + name.substring(1);
      PutBytes put =
          bind(
              PutBytes.class,
              encoder,
              "put" + capitalized,
              MethodType.methodType(encoder, byte[].class, int.class, int.class));
      IntGet<Object> length =
          bind(IntGet.class, decoder, name + "Length", MethodType.methodType(int.class));
      GetBytes read =
          bind(
              GetBytes.class,
              decoder,
              "get" + capitalized,
              MethodType.methodType(int.class, byte[].class, int.class, int.class));
      return custom(
          new Field<>() {
            @Override
            public void encode(V value, Object encoder) {
              byte[] bytes = get.get(value);
              put.put(encoder, bytes, 0, bytes.length);
            }

            @Override
            public void decode(Object decoder, V value) {
              byte[] bytes = new byte[length.get(decoder)];
              read.get(decoder, bytes, 0, bytes.length);
              set.set(value, bytes);
            }

            @Override
            public void copy(V from, V to) {
              copy.accept(from, to);
            }
          });
    }

    /** A field that needs a mapping of its own (a code to an enum, a default for old values). */
    public Builder<V> custom(Field<V> field) {
      fields.add(field);
      return this;
    }

    public ValueFields<V> build() {
      return new ValueFields<>(this);
    }
  }

  /** A setter of a codec: {@code owner.name(parameter)}, returning the codec. */
  private static <T> T bind(
      Class<?> samType, Class<?> owner, String name, Class<?> returns, Class<?> parameter) {
    return bind(samType, owner, name, MethodType.methodType(returns, parameter));
  }

  /**
   * {@code owner}'s public method {@code name} of type {@code type}, as an instance of the
   * functional interface {@code samType} whose single method takes the owner first, then the
   * method's parameters.
   */
  @SuppressWarnings("unchecked")
  private static <T> T bind(Class<?> samType, Class<?> owner, String name, MethodType type) {
    java.lang.reflect.Method sam = singleMethod(samType);
    try {
      MethodHandle target = LOOKUP.findVirtual(owner, name, type);
      MethodType erased = MethodType.methodType(sam.getReturnType(), sam.getParameterTypes());
      MethodType instantiated =
          MethodType.methodType(sam.getReturnType(), target.type().parameterArray());
      if (sam.getReturnType() != void.class) {
        instantiated = instantiated.changeReturnType(target.type().returnType());
      }
      return (T)
          LambdaMetafactory.metafactory(
                  LOOKUP,
                  sam.getName(),
                  MethodType.methodType(samType),
                  erased,
                  target,
                  instantiated)
              .getTarget()
              .invoke();
    } catch (Throwable e) {
      throw new IllegalArgumentException(
          owner.getSimpleName() + " has no " + name + type + " for a value field", e);
    }
  }

  @SuppressWarnings("unchecked")
  private static Supplier<Object> constructor(Class<?> codec) {
    try {
      MethodHandle target = LOOKUP.findConstructor(codec, MethodType.methodType(void.class));
      return (Supplier<Object>)
          LambdaMetafactory.metafactory(
                  LOOKUP,
                  "get",
                  MethodType.methodType(Supplier.class),
                  MethodType.methodType(Object.class),
                  target,
                  MethodType.methodType(codec))
              .getTarget()
              .invoke();
    } catch (Throwable e) {
      throw new IllegalArgumentException(codec.getSimpleName() + " cannot be constructed", e);
    }
  }

  private static java.lang.reflect.Method singleMethod(Class<?> samType) {
    for (java.lang.reflect.Method method : samType.getMethods()) {
      if (java.lang.reflect.Modifier.isAbstract(method.getModifiers())) {
        return method;
      }
    }
    throw new IllegalArgumentException(samType + " is not a functional interface");
  }
}
