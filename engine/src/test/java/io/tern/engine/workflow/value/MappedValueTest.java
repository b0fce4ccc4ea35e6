package io.tern.engine.workflow.value;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every public field of a value mapped with {@link ValueFields} is in its list: set to a value of
 * its own, each survives encoding and decoding and {@link MappedValue#copyFrom}. (That the bytes
 * are the ones written before the mapping is {@code OldLogFixtureTest}'s.)
 */
class MappedValueTest {
  static Stream<Class<? extends MappedValue<?>>> mappedValues() {
    return Stream.of(
        CompensationSubscriptionValue.class,
        DecisionEvaluationValue.class,
        DeploymentDistributionValue.class,
        DeploymentValue.class,
        IncidentValue.class,
        JobBatchValue.class,
        JobValue.class,
        MessageCorrelationValue.class,
        MessageSubscriptionValue.class,
        MessageValue.class,
        ProcessEventValue.class,
        ProcessInstanceCreationValue.class,
        ProcessInstanceMigrationValue.class,
        ProcessInstanceModificationValue.class,
        UserTaskValue.class,
        ProcessInstanceValue.class,
        ResourceDeletionValue.class,
        SignalSubscriptionValue.class,
        SignalValue.class,
        TimerValue.class,
        VariableDocumentValue.class,
        VariableValue.class);
  }

  @ParameterizedTest
  @MethodSource("mappedValues")
  <V extends MappedValue<V>> void everyFieldIsEncodedDecodedAndCopied(Class<V> type)
      throws ReflectiveOperationException {
    V value = type.getConstructor().newInstance();
    Map<String, Object> expected = fill(value);

    ExpandableArrayBuffer buffer = new ExpandableArrayBuffer();
    int length = value.length();
    value.write(buffer, 0);
    V decoded = type.getConstructor().newInstance();
    decoded.wrap(new UnsafeBuffer(buffer, 0, length), 0, length);
    assertThat(fields(decoded)).as("decoded").isEqualTo(expected);

    V copy = type.getConstructor().newInstance().copyFrom(value);
    assertThat(fields(copy)).as("copied").isEqualTo(expected);

    ExpandableArrayBuffer again = new ExpandableArrayBuffer();
    assertThat(copy.length()).isEqualTo(length);
    copy.write(again, 0);
    assertThat(again.byteArray()).startsWith(java.util.Arrays.copyOf(buffer.byteArray(), length));
  }

  /** Sets every public instance field to a value of its own, not its default; returns them. */
  private static Map<String, Object> fill(Object value) throws ReflectiveOperationException {
    int n = 1;
    for (Field field : publicFields(value.getClass())) {
      n++;
      Class<?> type = field.getType();
      if (type == long.class) {
        field.setLong(value, 1000L * n + 7);
      } else if (type == int.class) {
        field.setInt(value, 100 * n + 3);
      } else if (type == boolean.class) {
        field.setBoolean(value, !field.getBoolean(value));
      } else if (type == String.class) {
        field.set(value, field.getName() + "-" + n);
      } else if (type == byte[].class) {
        field.set(
            value, ("{\"" + field.getName() + "\":" + n + "}").getBytes(StandardCharsets.UTF_8));
      } else if (type.isEnum()) {
        Object[] constants = type.getEnumConstants();
        Object current = field.get(value);
        field.set(value, constants[(((Enum<?>) current).ordinal() + 1) % constants.length]);
      } else if (type == List.class) {
        @SuppressWarnings("unchecked")
        List<Object> list = (List<Object>) field.get(value);
        Class<?> element =
            (Class<?>) ((ParameterizedType) field.getGenericType()).getActualTypeArguments()[0];
        list.add(element(element, field.getName() + "-a", 10 * n));
        list.add(element(element, field.getName() + "-b", 10 * n + 5));
      } else {
        throw new AssertionError("a field of a type the test does not know: " + field);
      }
    }
    return fields(value);
  }

  /**
   * An element of a list (a group's entries) of type {@code type}, its fields made of {@code n}.
   */
  private static Object element(Class<?> type, String name, int n)
      throws ReflectiveOperationException {
    if (type == String.class) {
      return name;
    }
    if (type == Long.class) {
      return 1000L * n + 9;
    }
    if (type.isRecord()) {
      RecordComponent[] components = type.getRecordComponents();
      Object[] arguments = new Object[components.length];
      Class<?>[] types = new Class<?>[components.length];
      for (int i = 0; i < components.length; i++) {
        types[i] = components[i].getType();
        arguments[i] = component(types[i], name + "." + components[i].getName(), n + i);
      }
      return type.getDeclaredConstructor(types).newInstance(arguments);
    }
    if (MappedValue.class.isAssignableFrom(type)) {
      Object nested = type.getConstructor().newInstance();
      fill(nested);
      return nested;
    }
    throw new AssertionError("a list of a type the test does not know: " + type);
  }

  private static Object component(Class<?> type, String name, int n) {
    if (type == long.class) {
      return 1000L * n + 11;
    } else if (type == int.class) {
      return 100 * n + 13;
    } else if (type == boolean.class) {
      return n % 2 == 0;
    } else if (type == String.class) {
      return name;
    } else if (type == byte[].class) {
      return ("{\"" + name + "\":" + n + "}").getBytes(StandardCharsets.UTF_8);
    }
    throw new AssertionError("a record component of a type the test does not know: " + type);
  }

  private static Map<String, Object> fields(Object value) throws ReflectiveOperationException {
    Map<String, Object> fields = new LinkedHashMap<>();
    for (Field field : publicFields(value.getClass())) {
      Object content = field.get(value);
      fields.put(
          field.getName(),
          content instanceof byte[] bytes
              ? new String(bytes, StandardCharsets.UTF_8)
              : content instanceof List<?> list ? GroupValuesTest.describe(list) : content);
    }
    return fields;
  }

  private static List<Field> publicFields(Class<?> type) {
    List<Field> fields = new ArrayList<>();
    for (Field field : type.getDeclaredFields()) {
      int modifiers = field.getModifiers();
      if (Modifier.isPublic(modifiers) && !Modifier.isStatic(modifiers)) {
        fields.add(field);
      }
    }
    assertThat(fields).as("public fields of %s", type.getSimpleName()).isNotEmpty();
    return fields;
  }
}
