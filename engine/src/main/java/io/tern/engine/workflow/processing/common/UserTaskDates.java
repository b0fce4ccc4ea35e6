package io.tern.engine.workflow.processing.common;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * A user task's due and follow-up dates: ISO 8601 date-times with an offset or zone (what a FEEL
 * {@code date and time} gives, or what a client sends), kept as ISO 8601 text with an offset.
 */
public final class UserTaskDates {
  private UserTaskDates() {}

  /** {@code text} as an offset date-time, or null if it is none. */
  public static String normalize(String text) {
    try {
      return ZonedDateTime.parse(text.strip(), DateTimeFormatter.ISO_ZONED_DATE_TIME)
          .toOffsetDateTime()
          .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
