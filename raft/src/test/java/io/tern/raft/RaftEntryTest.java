package io.tern.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class RaftEntryTest {
  private static final byte[] DATA = {10, 20, 30, 40};

  private static RaftEntry owned() {
    return new RaftEntry(5, 2, RaftEntry.Type.APPLICATION, 77, DATA.clone());
  }

  /** DATA at offset 3 of an 8-byte buffer. */
  private static UnsafeBuffer frame() {
    UnsafeBuffer frame = new UnsafeBuffer(new byte[8]);
    frame.putBytes(3, DATA);
    return frame;
  }

  private static RaftEntry view(UnsafeBuffer frame) {
    return RaftEntry.view(5, 2, RaftEntry.Type.APPLICATION, 77, frame, 3, DATA.length);
  }

  @Test
  void aViewEqualsTheEntryThatOwnsTheSameBytes() {
    RaftEntry view = view(frame());

    assertThat(view.isView()).isTrue();
    assertThat(owned().isView()).isFalse();
    assertThat(view).isEqualTo(owned()).hasSameHashCodeAs(owned());
    assertThat(owned()).isEqualTo(view);
    assertThat(view.dataLength()).isEqualTo(4);
    assertThat(view.sizeBytes()).isEqualTo(owned().sizeBytes());
  }

  @Test
  void differentBytesOrFieldsMakeDifferentEntries() {
    UnsafeBuffer frame = frame();
    frame.putByte(6, (byte) 41);
    assertThat(view(frame)).isNotEqualTo(owned());
    assertThat(owned().withAsqn(78)).isNotEqualTo(owned());
    assertThat(owned().withIndex(6)).isNotEqualTo(owned());
    assertThat(RaftEntry.view(5, 2, RaftEntry.Type.APPLICATION, 77, frame(), 3, 3))
        .isNotEqualTo(owned());
  }

  @Test
  void aViewReadsTheBufferUntilMadeOwned() {
    UnsafeBuffer frame = frame();
    RaftEntry view = view(frame);
    RaftEntry kept = view.owned();
    byte[] copied = view.data();
    frame.putByte(3, (byte) 99);

    assertThat(view.data()).containsExactly(99, 20, 30, 40);
    assertThat(kept.isView()).isFalse();
    assertThat(kept.data()).containsExactly(DATA);
    assertThat(copied).containsExactly(DATA);
    assertThat(owned().owned().data()).as("an owned entry is its own").isEqualTo(DATA);
  }

  @Test
  void copiesItsDataToABufferWhicheverWayItHoldsIt() {
    for (RaftEntry entry : new RaftEntry[] {owned(), view(frame())}) {
      UnsafeBuffer target = new UnsafeBuffer(new byte[6]);
      entry.copyDataTo(target, 2);
      assertThat(target.byteArray()).containsExactly(0, 0, 10, 20, 30, 40);
    }
  }

  @Test
  void withIndexAndWithAsqnKeepTheDataAndTheView() {
    RaftEntry view = view(frame());
    assertThat(view.withIndex(9).isView()).isTrue();
    assertThat(view.withIndex(9).index()).isEqualTo(9);
    assertThat(view.withAsqn(1).asqn()).isEqualTo(1);
    assertThat(view.withAsqn(1).data()).containsExactly(DATA);
  }

  @Test
  void refusesAViewOutsideItsBuffer() {
    assertThatThrownBy(
            () -> RaftEntry.view(1, 1, RaftEntry.Type.APPLICATION, 1, frame(), 5, DATA.length))
        .isInstanceOf(IndexOutOfBoundsException.class)
        .hasMessageContaining("outside a buffer of 8");
    assertThatThrownBy(() -> RaftEntry.view(1, 1, RaftEntry.Type.APPLICATION, 1, frame(), -1, 1))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }
}
