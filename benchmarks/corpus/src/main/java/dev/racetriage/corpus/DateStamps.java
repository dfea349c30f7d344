package dev.racetriage.corpus;

import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.TimeZone;

/**
 * A {@code SimpleDateFormat} in a static, shared by worker threads (issue 22: the JDK documents it as not
 * synchronised). {@code format} sets the format's one calendar to the date and then reads its fields: two threads
 * formatting at once may each print fields of the other's date.
 */
public class DateStamps {
  private static final SimpleDateFormat FORMAT = new SimpleDateFormat("yyyy-MM-dd HH:mm");

  static {
    FORMAT.setTimeZone(TimeZone.getTimeZone("UTC"));
  }

  public static String stamp(long millis) {
    return FORMAT.format(new Date(millis));
  }
}
