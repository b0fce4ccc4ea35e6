package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.BooleanType;
import io.tern.engine.record.sbe.MessageHeaderEncoder;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

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
 * <p>A repeating group is declared in its place among the fields, with its own fields in the same
 * style, held in Java lists: either one list of records, an entry each ({@link Entries}), or a list
 * per field, entry by entry ({@link Columns}: a group of one field is a list of values, such as
 * strings or keys). A field of bytes that holds an encoded value ({@link Columns#value}) is read as
 * a new value of its class.
 *
 * <p>Immutable and shared by every instance of a value class ({@link MappedValue}); the encoder and
 * decoder flyweights are each instance's own. Nothing is allocated per encode, decode or copy
 * beyond what the fields themselves need: decoded strings and byte arrays, and a group's entries
 * (records, boxed numbers in a list, nested values).
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

  /** (group encoder, value, index): one entry of a group. */
  private static final MethodType ENTRY =
      MethodType.methodType(void.class, Object.class, Object.class, int.class);

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
    this.encodeFields = sequence(builder.encodeSteps, STEP);
    this.decodeFields = sequence(builder.decodeSteps, STEP);
    this.copyFields = sequence(builder.copySteps, STEP);
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
      return add(INT64.in(encoder, decoder, name), bound(LONG_GET, get), bound(LONG_SET, set));
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
      Access field = INT64.in(encoder, decoder, name);
      MethodHandle read =
          MethodHandles.filterReturnValue(
              field.read(), MethodHandles.insertArguments(OR_ELSE, 1, absent, ifAbsent));
      return add(new Access(field.put(), read), bound(LONG_GET, get), bound(LONG_SET, set));
    }

    /** A uint8 field named {@code name} in the schema: a code (an enum's ordinal). */
    public Builder<V> uint8(String name, IntGet<V> get, IntSet<V> set) {
      return add(UINT8.in(encoder, decoder, name), bound(INT_GET, get), bound(INT_SET, set));
    }

    /** An int32 field named {@code name} in the schema. */
    public Builder<V> int32(String name, IntGet<V> get, IntSet<V> set) {
      return add(INT32.in(encoder, decoder, name), bound(INT_GET, get), bound(INT_SET, set));
    }

    /** A {@link BooleanType} field named {@code name} in the schema, a boolean in the value. */
    public Builder<V> bool(String name, BooleanGet<V> get, BooleanSet<V> set) {
      return add(BOOL.in(encoder, decoder, name), bound(BOOLEAN_GET, get), bound(BOOLEAN_SET, set));
    }

    /** Variable-length UTF-8 text named {@code name} in the schema. */
    public Builder<V> string(String name, Get<V, String> get, Set<V, String> set) {
      return add(STRING.in(encoder, decoder, name), bound(GET, get), bound(SET, set));
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
      add(BYTES.in(encoder, decoder, name), bound(GET, get), bound(SET, set));
      if (copy != null) {
        copySteps.set(
            copySteps.size() - 1,
            MethodHandles.permuteArguments(bound(BI_CONSUMER, copy), STEP, 1, 0));
      }
      return this;
    }

    /**
     * A repeating group named {@code name} in the schema whose entries are the records of {@code
     * list}, one record of {@code type} an entry: {@code fields} declares the group's fields in the
     * schema's order, each with the record component it is (see {@link Entries}). Decoding replaces
     * the list's records with new ones; copying shares them.
     */
    public <E extends Record> Builder<V> group(
        String name, Get<V, List<E>> list, Class<E> type, UnaryOperator<Entries<E>> fields) {
      GroupCodecs codecs = new GroupCodecs(encoder, decoder, name);
      Entries<E> entries = fields.apply(new Entries<>(type));
      Access entry = entries.resolve(codecs.encoder, codecs.decoder);
      MethodHandle getList =
          bound(GET, list).asType(MethodType.methodType(List.class, Object.class));
      // (group encoder, value, i): entry(group encoder, list(value).get(i))
      MethodHandle put =
          MethodHandles.collectArguments(
              entry.put(), 1, MethodHandles.filterArguments(LIST_GET, 0, getList));
      // (value, group decoder): list(value).add(entry(group decoder))
      MethodHandle read =
          MethodHandles.filterArguments(
              addTo(getList),
              1,
              entry.read().asType(MethodType.methodType(Object.class, Object.class)));
      return group(
          new Group(name, codecs, new MethodHandle[] {getList}, put, read),
          List.of(MethodHandles.filterArguments(COPY_LIST, 0, getList, getList)));
    }

    /**
     * A repeating group named {@code name} in the schema whose fields are each held in a list of
     * the value, entry by entry (so a group of one field is a list of values, and lists of the same
     * length make the entries of a group of several): {@code fields} declares them in the schema's
     * order (see {@link Columns}).
     */
    public Builder<V> group(String name, UnaryOperator<Columns<V>> fields) {
      GroupCodecs codecs = new GroupCodecs(encoder, decoder, name);
      Columns<V> columns = fields.apply(new Columns<>());
      if (columns.columns.isEmpty()) {
        throw new IllegalArgumentException("group " + name + " has no fields");
      }
      MethodHandle[] lists = new MethodHandle[columns.columns.size()];
      List<MethodHandle> puts = new ArrayList<>();
      List<MethodHandle> reads = new ArrayList<>();
      List<MethodHandle> copies = new ArrayList<>();
      for (int i = 0; i < lists.length; i++) {
        Column column = columns.columns.get(i);
        Access field = column.kind().in(codecs.encoder, codecs.decoder, column.name());
        MethodHandle getList = column.list();
        lists[i] = getList;
        // (group encoder, value, i): put(group encoder, (X) list(value).get(i))
        puts.add(
            MethodHandles.collectArguments(
                field.put(),
                1,
                MethodHandles.filterArguments(LIST_GET, 0, getList)
                    .asType(MethodType.methodType(field.type(), Object.class, int.class))));
        // (value, group decoder): list(value).add(read(group decoder)), boxed if need be
        reads.add(
            MethodHandles.filterArguments(
                addTo(getList),
                1,
                field.read().asType(MethodType.methodType(Object.class, Object.class))));
        MethodHandle copy =
            column.copies() == null
                ? COPY_LIST
                : MethodHandles.insertArguments(COPY_VALUES, 0, column.copies());
        copies.add(MethodHandles.filterArguments(copy, 0, getList, getList));
      }
      return group(
          new Group(name, codecs, lists, sequence(puts, ENTRY), sequence(reads, STEP)), copies);
    }

    public ValueFields<V> build() {
      return new ValueFields<>(this);
    }

    private Builder<V> group(Group group, List<MethodHandle> copies) {
      encodeSteps.add(GROUP_ENCODE.bindTo(group));
      decodeSteps.add(GROUP_DECODE.bindTo(group));
      copySteps.addAll(copies);
      return this;
    }

    /**
     * One field from how the codec writes and reads it and the value's accessors: {@code get(value)
     * -> x}, {@code set(value, x)} (of any type {@code x} converts to).
     */
    private Builder<V> add(Access field, MethodHandle get, MethodHandle set) {
      MethodHandle getField = get.asType(MethodType.methodType(field.type(), Object.class));
      MethodHandle setField =
          set.asType(MethodType.methodType(void.class, Object.class, field.type()));
      encodeSteps.add(MethodHandles.filterArguments(field.put(), 1, getField)); // (encoder, value)
      decodeSteps.add(MethodHandles.filterArguments(setField, 1, field.read())); // (value, decoder)
      copySteps.add(MethodHandles.filterArguments(setField, 1, getField)); // (to, from)
      return this;
    }

    /** (value, x): {@code list(value).add(x)}. */
    private static MethodHandle addTo(MethodHandle list) {
      return MethodHandles.filterArguments(LIST_ADD, 0, list)
          .asType(MethodType.methodType(void.class, Object.class, Object.class));
    }
  }

  /**
   * The fields of a repeating group's entries, each a record: each field in the schema's order,
   * named as in the schema, with the record component it is (of the same name unless given). Every
   * component is one of the fields, of the field's type: {@code long} for int64, {@code int} for
   * int32 and uint8, {@code boolean} for a {@link BooleanType}, {@code String} for text, {@code
   * byte[]} for bytes. An entry is decoded with the record's canonical constructor.
   *
   * @param <E> the record
   */
  public static final class Entries<E extends Record> {
    private record Declared(Kind kind, String name, String component) {}

    private final Class<E> type;
    private final List<Declared> fields = new ArrayList<>();

    private Entries(Class<E> type) {
      this.type = type;
    }

    /** An int64 field named {@code name} in the schema, the record component of that name. */
    public Entries<E> int64(String name) {
      return int64(name, name);
    }

    /** An int64 field named {@code name} in the schema, the record's {@code component}. */
    public Entries<E> int64(String name, String component) {
      return add(INT64, name, component);
    }

    /** An int32 field named {@code name} in the schema, the record component of that name. */
    public Entries<E> int32(String name) {
      return int32(name, name);
    }

    /** An int32 field named {@code name} in the schema, the record's {@code component}. */
    public Entries<E> int32(String name, String component) {
      return add(INT32, name, component);
    }

    /** A uint8 code named {@code name} in the schema, the record component of that name. */
    public Entries<E> uint8(String name) {
      return uint8(name, name);
    }

    /** A uint8 code named {@code name} in the schema, the record's {@code component}. */
    public Entries<E> uint8(String name, String component) {
      return add(UINT8, name, component);
    }

    /** A {@link BooleanType} field named {@code name}, the record component of that name. */
    public Entries<E> bool(String name) {
      return bool(name, name);
    }

    /** A {@link BooleanType} field named {@code name}, the record's {@code component}. */
    public Entries<E> bool(String name, String component) {
      return add(BOOL, name, component);
    }

    /** Text named {@code name} in the schema, the record component of that name. */
    public Entries<E> string(String name) {
      return string(name, name);
    }

    /** Text named {@code name} in the schema, the record's {@code component}. */
    public Entries<E> string(String name, String component) {
      return add(STRING, name, component);
    }

    /** Bytes named {@code name} in the schema, the record component of that name. */
    public Entries<E> bytes(String name) {
      return bytes(name, name);
    }

    /** Bytes named {@code name} in the schema, the record's {@code component}. */
    public Entries<E> bytes(String name, String component) {
      return add(BYTES, name, component);
    }

    private Entries<E> add(Kind kind, String name, String component) {
      fields.add(new Declared(kind, name, component));
      return this;
    }

    /**
     * How an entry is written and read: (group encoder, entry) and (group decoder) -> entry, the
     * fields in the schema's order both ways.
     */
    private Access resolve(Class<?> encoder, Class<?> decoder) {
      RecordComponent[] components = type.getRecordComponents();
      Class<?>[] parameters = new Class<?>[components.length];
      int[] reorder = new int[components.length];
      Arrays.fill(reorder, -1);
      int n = fields.size();
      List<MethodHandle> puts = new ArrayList<>();
      MethodHandle[] reads = new MethodHandle[n];
      Class<?>[] readTypes = new Class<?>[n + 1];
      for (int i = 0; i < n; i++) {
        Declared field = fields.get(i);
        int c = component(components, field.component());
        if (reorder[c] >= 0) {
          throw new IllegalArgumentException(
              type.getSimpleName() + "." + field.component() + " is two fields of the group");
        }
        reorder[c] = i;
        Access access = field.kind().in(encoder, decoder, field.name());
        if (components[c].getType() != access.type()) {
          throw new IllegalArgumentException(
              type.getSimpleName()
                  + "."
                  + field.component()
                  + " is a "
                  + components[c].getType().getSimpleName()
                  + ", field "
                  + field.name()
                  + " a "
                  + access.type().getSimpleName());
        }
        parameters[c] = access.type();
        MethodHandle accessor;
        try {
          accessor =
              LOOKUP
                  .unreflect(components[c].getAccessor())
                  .asType(MethodType.methodType(access.type(), Object.class));
        } catch (IllegalAccessException e) {
          throw new IllegalArgumentException(type + " is not accessible", e);
        }
        puts.add(MethodHandles.filterArguments(access.put(), 1, accessor));
        reads[i] = access.read();
        readTypes[i] = access.type();
      }
      for (int c = 0; c < components.length; c++) {
        if (reorder[c] < 0) {
          throw new IllegalArgumentException(
              type.getSimpleName() + "." + components[c].getName() + " is no field of the group");
        }
      }
      MethodHandle construct;
      try {
        construct = LOOKUP.findConstructor(type, MethodType.methodType(void.class, parameters));
      } catch (ReflectiveOperationException e) {
        throw new IllegalArgumentException(type + " has no canonical constructor to use", e);
      }
      // (x0, ..., xn-1, group decoder) -> new E(the xs in the components' order); then each xi
      // read in turn, first to last, from the group decoder: (group decoder) -> E.
      readTypes[n] = Object.class;
      MethodHandle entry =
          MethodHandles.permuteArguments(
              construct, MethodType.methodType(type, readTypes), reorder);
      for (int i = n - 1; i >= 0; i--) {
        entry = MethodHandles.foldArguments(entry, i, reads[i]);
      }
      return new Access(sequence(puts, STEP), entry);
    }

    private int component(RecordComponent[] components, String name) {
      for (int c = 0; c < components.length; c++) {
        if (components[c].getName().equals(name)) {
          return c;
        }
      }
      throw new IllegalArgumentException(type.getSimpleName() + " has no component " + name);
    }
  }

  /**
   * The fields of a repeating group, each held in a list of the value, entry by entry; every list
   * has as many elements as the group has entries. Decoding replaces each list's elements.
   *
   * @param <V> the value class
   */
  public static final class Columns<V> {
    private final List<Column> columns = new ArrayList<>();

    private Columns() {}

    /** An int64 field named {@code name} in the schema. */
    public Columns<V> int64(String name, Get<V, List<Long>> list) {
      return add(INT64, name, list, null);
    }

    /** An int32 field named {@code name} in the schema. */
    public Columns<V> int32(String name, Get<V, List<Integer>> list) {
      return add(INT32, name, list, null);
    }

    /** A {@link BooleanType} field named {@code name} in the schema. */
    public Columns<V> bool(String name, Get<V, List<Boolean>> list) {
      return add(BOOL, name, list, null);
    }

    /** Text named {@code name} in the schema. */
    public Columns<V> string(String name, Get<V, List<String>> list) {
      return add(STRING, name, list, null);
    }

    /** Bytes named {@code name} in the schema (copying shares the arrays). */
    public Columns<V> bytes(String name, Get<V, List<byte[]>> list) {
      return add(BYTES, name, list, null);
    }

    /**
     * Bytes named {@code name} in the schema that hold an encoded value: decoding makes each with
     * {@code factory}, copying copies each into a new one.
     */
    public <W extends MappedValue<W>> Columns<V> value(
        String name, Get<V, List<W>> list, Supplier<W> factory) {
      return add(nested(factory), name, list, factory);
    }

    private Columns<V> add(Kind kind, String name, Object list, Supplier<?> copies) {
      columns.add(
          new Column(
              kind,
              name,
              bound(GET, list).asType(MethodType.methodType(List.class, Object.class)),
              copies));
      return this;
    }
  }

  private record Column(Kind kind, String name, MethodHandle list, Supplier<?> copies) {}

  /** A repeating group's codecs: what the message's encoder and decoder name {@code name}. */
  private static final class GroupCodecs {
    final Class<?> encoder;
    final Class<?> decoder;

    /** (message encoder, count) -> group encoder: {@code nameCount(count)}. */
    final MethodHandle start;

    /** (group encoder): {@code next()}. */
    final MethodHandle nextOut;

    /** (message decoder) -> group decoder: {@code name()}. */
    final MethodHandle entries;

    /** (group decoder) -> count. */
    final MethodHandle count;

    /** (group decoder): {@code next()}. */
    final MethodHandle nextIn;

    GroupCodecs(Class<?> message, Class<?> messageDecoder, String name) {
      try {
        encoder = message.getMethod(name + "Count", int.class).getReturnType();
        decoder = messageDecoder.getMethod(name).getReturnType();
      } catch (NoSuchMethodException e) {
        throw new IllegalArgumentException(message.getSimpleName() + " has no group " + name, e);
      }
      start =
          codec(
              message,
              name + "Count",
              MethodType.methodType(encoder, int.class),
              MethodType.methodType(Object.class, Object.class, int.class));
      nextOut =
          codec(
              encoder,
              "next",
              MethodType.methodType(encoder),
              MethodType.methodType(void.class, Object.class));
      entries =
          codec(
              messageDecoder,
              name,
              MethodType.methodType(decoder),
              MethodType.methodType(Object.class, Object.class));
      count =
          codec(
              decoder,
              "count",
              MethodType.methodType(int.class),
              MethodType.methodType(int.class, Object.class));
      nextIn =
          codec(
              decoder,
              "next",
              MethodType.methodType(decoder),
              MethodType.methodType(void.class, Object.class));
    }
  }

  /**
   * A repeating group of a value: its entries counted in the value's lists, then written one by
   * one; read one by one into the lists.
   */
  private static final class Group {
    private final String name;
    private final GroupCodecs codecs;

    /** (value) -> List: the lists that hold the entries, each with one element an entry. */
    private final MethodHandle[] lists;

    /** (group encoder, value, index): the fields of entry {@code index}. */
    private final MethodHandle put;

    /** (value, group decoder): reads an entry's fields, adds the entry to the lists. */
    private final MethodHandle read;

    Group(
        String name,
        GroupCodecs codecs,
        MethodHandle[] lists,
        MethodHandle put,
        MethodHandle read) {
      this.name = name;
      this.codecs = codecs;
      this.lists = lists;
      this.put = put;
      this.read = read;
    }

    void encode(Object encoder, Object value) throws Throwable {
      int count = ((List<?>) lists[0].invokeExact(value)).size();
      for (int i = 1; i < lists.length; i++) {
        if (((List<?>) lists[i].invokeExact(value)).size() != count) {
          throw new IllegalStateException("the lists of group " + name + " have different lengths");
        }
      }
      Object group = (Object) codecs.start.invokeExact(encoder, count);
      for (int i = 0; i < count; i++) {
        codecs.nextOut.invokeExact(group);
        put.invokeExact(group, value, i);
      }
    }

    void decode(Object value, Object decoder) throws Throwable {
      for (MethodHandle list : lists) {
        ((List<?>) list.invokeExact(value)).clear();
      }
      Object group = (Object) codecs.entries.invokeExact(decoder);
      int count = (int) codecs.count.invokeExact(group);
      for (int i = 0; i < count; i++) {
        codecs.nextIn.invokeExact(group);
        read.invokeExact(value, group);
      }
    }
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

  /** Runs each step, of {@code type}, in turn. */
  private static MethodHandle sequence(List<MethodHandle> steps, MethodType type) {
    MethodHandle all = MethodHandles.empty(type);
    for (int i = steps.size() - 1; i >= 0; i--) {
      all = MethodHandles.foldArguments(all, steps.get(i).asType(type));
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
  private static final MethodHandle LIST_GET = sam(List.class, "get", Object.class, int.class);
  private static final MethodHandle LIST_ADD = sam(List.class, "add", boolean.class, Object.class);
  private static final MethodHandle COPY_LIST =
      helper("copyList", void.class, List.class, List.class);
  private static final MethodHandle COPY_VALUES =
      helper("copyValues", void.class, Supplier.class, List.class, List.class);
  private static final MethodHandle GROUP_ENCODE =
      sam(Group.class, "encode", void.class, Object.class, Object.class);
  private static final MethodHandle GROUP_DECODE =
      sam(Group.class, "decode", void.class, Object.class, Object.class);
  private static final MethodHandle NESTED_PUT =
      sam(Nested.class, "put", void.class, Object.class, Object.class);
  private static final MethodHandle NESTED_READ =
      sam(Nested.class, "read", Object.class, Object.class);

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

  private static void copyList(List<Object> to, List<Object> from) {
    if (to != from) {
      to.clear();
      to.addAll(from);
    }
  }

  /** Into {@code to}, a copy of each value of {@code from}, each made by {@code factory}. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void copyValues(
      Supplier<MappedValue> factory, List<Object> to, List<Object> from) {
    if (to != from) {
      to.clear();
      for (Object value : from) {
        to.add(factory.get().copyFrom((MappedValue) value));
      }
    }
  }

  /**
   * How a codec writes and reads one field: {@code put} (codec, x), {@code read} (codec) -> x, x of
   * the field's Java type.
   */
  private record Access(MethodHandle put, MethodHandle read) {
    Class<?> type() {
      return read.type().returnType();
    }
  }

  /**
   * A kind of field: how the codecs {@code encoder} and {@code decoder} write and read {@code
   * name}.
   */
  @FunctionalInterface
  private interface Kind {
    Access in(Class<?> encoder, Class<?> decoder, String name);
  }

  private static final Kind INT64 =
      (encoder, decoder, name) ->
          new Access(setter(encoder, name, long.class), getter(decoder, name, long.class));

  private static final Kind INT32 =
      (encoder, decoder, name) ->
          new Access(setter(encoder, name, int.class), getter(decoder, name, int.class));

  /** A uint8 code as an int. */
  private static final Kind UINT8 =
      (encoder, decoder, name) ->
          new Access(
              MethodHandles.filterArguments(setter(encoder, name, short.class), 1, TO_SHORT),
              getter(decoder, name, short.class)
                  .asType(MethodType.methodType(int.class, Object.class)));

  /** A {@link BooleanType} as a boolean. */
  private static final Kind BOOL =
      (encoder, decoder, name) ->
          new Access(
              MethodHandles.filterArguments(
                  setter(encoder, name, BooleanType.class), 1, TO_BOOLEAN),
              MethodHandles.filterReturnValue(getter(decoder, name, BooleanType.class), IS_TRUE));

  private static final Kind STRING =
      (encoder, decoder, name) ->
          new Access(setter(encoder, name, String.class), getter(decoder, name, String.class));

  /** Bytes as a byte[]: a new one each read. */
  private static final Kind BYTES =
      (encoder, decoder, name) -> {
        String capitalized = Character.toUpperCase(name.charAt(0)) + name.substring(1);
        // put(encoder, bytes) = putName(encoder, bytes, 0, bytes.length)
        MethodHandle putRange =
            codec(
                encoder,
                "put" + capitalized,
                MethodType.methodType(encoder, byte[].class, int.class, int.class),
                MethodType.methodType(
                    void.class, Object.class, byte[].class, int.class, int.class));
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
                MethodType.methodType(
                    void.class, Object.class, byte[].class, int.class, int.class));
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
        return new Access(put, MethodHandles.foldArguments(fillAndReturn, allocate));
      };

  /**
   * Bytes that hold an encoded value: written from the value's own buffer, read as a new value made
   * by {@code factory} (decoded where the bytes are, not copied first).
   */
  private static Kind nested(Supplier<? extends WorkflowValue> factory) {
    return (encoder, decoder, name) -> {
      String capitalized = Character.toUpperCase(name.charAt(0)) + name.substring(1);
      Nested nested =
          new Nested(
              codec(
                  encoder,
                  "put" + capitalized,
                  MethodType.methodType(encoder, DirectBuffer.class, int.class, int.class),
                  MethodType.methodType(
                      void.class, Object.class, DirectBuffer.class, int.class, int.class)),
              codec(
                  decoder,
                  "wrap" + capitalized,
                  MethodType.methodType(void.class, DirectBuffer.class),
                  MethodType.methodType(void.class, Object.class, DirectBuffer.class)),
              factory);
      return new Access(NESTED_PUT.bindTo(nested), NESTED_READ.bindTo(nested));
    };
  }

  private static final class Nested {
    /** (encoder, bytes, offset, length). */
    private final MethodHandle putData;

    /** (decoder, buffer): wraps the buffer around the bytes. */
    private final MethodHandle wrapData;

    private final Supplier<? extends WorkflowValue> factory;

    Nested(MethodHandle putData, MethodHandle wrapData, Supplier<? extends WorkflowValue> factory) {
      this.putData = putData;
      this.wrapData = wrapData;
      this.factory = factory;
    }

    void put(Object encoder, Object value) throws Throwable {
      WorkflowValue nested = (WorkflowValue) value;
      int length = nested.encodeOwn();
      putData.invokeExact(encoder, nested.encoded(), 0, length);
    }

    Object read(Object decoder) throws Throwable {
      UnsafeBuffer bytes = new UnsafeBuffer();
      wrapData.invokeExact(decoder, (DirectBuffer) bytes);
      WorkflowValue nested = factory.get();
      nested.wrap(bytes, 0, bytes.capacity());
      return nested;
    }
  }
}
