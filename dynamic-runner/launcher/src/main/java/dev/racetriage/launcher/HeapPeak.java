package dev.racetriage.launcher;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The largest heap this JVM committed while its tests ran: the runner sizes the detection JVM's heap from the
 * baseline JVM's ({@code --heap-peak}). The heap grows and shrinks only at collections, so the committed heap is
 * read before and after each one (the collectors' notifications) and once more when asked. Summing each pool's own
 * peak instead would add peaks of different moments. Without the notifications (a JVM with no
 * {@code com.sun.management}) only the pools' current committed sizes are read, when asked.
 */
final class HeapPeak {
  private static final AtomicLong PEAK = new AtomicLong(-1);
  private static volatile Set<String> heapPools;

  private HeapPeak() {}

  /** Starts following the collections. Calling it again does nothing. */
  static synchronized void start() {
    if (heapPools != null) {
      return;
    }
    Set<String> pools = new HashSet<>();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pools.add(pool.getName());
      }
    }
    heapPools = pools;
    NotificationListener listener = HeapPeak::collected;
    try {
      for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
        if (gc instanceof NotificationEmitter emitter) {
          emitter.addNotificationListener(listener, null, null);
        }
      }
    } catch (RuntimeException | LinkageError e) {
      // no notifications: the peak is the committed heap when asked
    }
    PEAK.accumulateAndGet(committedNow(), Math::max);
  }

  /** The peak committed heap in bytes, or -1 if {@link #start()} was not called. */
  static long bytes() {
    if (heapPools == null) {
      return -1;
    }
    return PEAK.accumulateAndGet(committedNow(), Math::max);
  }

  private static void collected(Notification notification, Object handback) {
    if (!"com.sun.management.gc.notification".equals(notification.getType())
        || !(notification.getUserData() instanceof CompositeData data)) {
      return;
    }
    try {
      com.sun.management.GcInfo info = com.sun.management.GarbageCollectionNotificationInfo.from(data).getGcInfo();
      long before = committed(info.getMemoryUsageBeforeGc());
      long after = committed(info.getMemoryUsageAfterGc());
      PEAK.accumulateAndGet(Math.max(before, after), Math::max);
    } catch (RuntimeException | LinkageError e) {
      // an unreadable notification: the next one, or the reading when asked, counts
    }
  }

  private static long committed(Map<String, MemoryUsage> usage) {
    long sum = 0;
    for (Map.Entry<String, MemoryUsage> e : usage.entrySet()) {
      if (heapPools.contains(e.getKey())) {
        sum += e.getValue().getCommitted();
      }
    }
    return sum;
  }

  private static long committedNow() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        sum += pool.getUsage().getCommitted();
      }
    }
    return sum;
  }
}
