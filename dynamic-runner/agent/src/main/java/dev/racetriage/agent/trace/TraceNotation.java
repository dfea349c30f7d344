package dev.racetriage.agent.trace;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Traces written as in the papers: {@code acq(0,m) wr(0,x,13) rel(0,m) rd(1,x)}. Operations: {@code rd(t,x)},
 * {@code wr(t,x,v)}, {@code acq(t,m)}, {@code rel(t,m)}, {@code vrd(t,v)}, {@code vwr(t,v)}, {@code fork(t,u)},
 * {@code join(t,u)}, {@code new(t,x,n)} (n locations from x on), {@code clinit(t,x,v)}. Threads and values are
 * numbers; locations and synchronisation objects are numbers or names, a name standing for the next free id of its
 * kind in order of first appearance. Operations are separated by blanks, {@code .} or {@code ;}.
 */
public final class TraceNotation {
    private TraceNotation() {
    }

    /**
     * @throws IllegalArgumentException naming the operation and its position when the text is not a trace
     */
    public static Trace parse(String text) {
        Map<String, Integer> locations = new LinkedHashMap<>();
        Map<String, Integer> syncs = new LinkedHashMap<>();
        List<Event> events = new ArrayList<>();
        int i = 0;
        while (true) {
            while (i < text.length() && (Character.isWhitespace(text.charAt(i)) || text.charAt(i) == '.'
                    || text.charAt(i) == ';')) {
                i++;
            }
            if (i >= text.length()) {
                return new Trace(events);
            }
            int open = text.indexOf('(', i);
            int close = open < 0 ? -1 : text.indexOf(')', open);
            if (open < 0 || close < 0) {
                throw new IllegalArgumentException("expected op(args) at position " + i + " of: " + text);
            }
            String op = text.substring(i, open).trim();
            String[] args = text.substring(open + 1, close).split(",");
            for (int k = 0; k < args.length; k++) {
                args[k] = args[k].trim();
            }
            try {
                events.add(event(op, args, locations, syncs));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("bad operation '" + text.substring(i, close + 1) + "' at position "
                        + i + ": " + e.getMessage(), e);
            }
            i = close + 1;
        }
    }

    private static Event event(String op, String[] a, Map<String, Integer> locations, Map<String, Integer> syncs) {
        switch (op) {
            case "rd":
                arity(a, 2);
                return new Event.Read(num(a[0]), id(a[1], locations));
            case "wr":
                arity(a, 3);
                return new Event.Write(num(a[0]), id(a[1], locations), Long.parseLong(a[2]));
            case "acq":
                arity(a, 2);
                return new Event.Acquire(num(a[0]), id(a[1], syncs));
            case "rel":
                arity(a, 2);
                return new Event.Release(num(a[0]), id(a[1], syncs));
            case "vrd":
                arity(a, 2);
                return new Event.VolatileRead(num(a[0]), id(a[1], syncs));
            case "vwr":
                arity(a, 2);
                return new Event.VolatileWrite(num(a[0]), id(a[1], syncs));
            case "fork":
                arity(a, 2);
                return new Event.Fork(num(a[0]), num(a[1]));
            case "join":
                arity(a, 2);
                return new Event.Join(num(a[0]), num(a[1]));
            case "new": {
                arity(a, 3);
                int first = id(a[1], locations);
                int count = num(a[2]);
                for (int k = 1; k < count; k++) {
                    locations.putIfAbsent("#" + (first + k), first + k); // reserve the ids of the other fields
                }
                return new Event.New(num(a[0]), first, count);
            }
            case "clinit":
                arity(a, 3);
                return new Event.ClinitWrite(num(a[0]), id(a[1], locations), Long.parseLong(a[2]));
            default:
                throw new IllegalArgumentException("unknown operation '" + op
                        + "'; use rd, wr, acq, rel, vrd, vwr, fork, join, new, clinit");
        }
    }

    private static void arity(String[] a, int n) {
        if (a.length != n) {
            throw new IllegalArgumentException("takes " + n + " arguments, got " + a.length);
        }
    }

    private static int num(String s) {
        return Integer.parseInt(s);
    }

    /** A number is itself; a name gets the next id not yet used by a number or another name. */
    private static int id(String s, Map<String, Integer> ids) {
        if (!s.isEmpty() && Character.isDigit(s.charAt(0))) {
            int n = Integer.parseInt(s);
            ids.putIfAbsent("#" + n, n);
            return n;
        }
        Integer known = ids.get(s);
        if (known != null) {
            return known;
        }
        int next = 0;
        while (ids.containsValue(next)) {
            next++;
        }
        ids.put(s, next);
        return next;
    }

    /** The trace in this notation, ids as numbers, one operation per line prefixed by its index. */
    public static String format(Trace trace) {
        StringBuilder sb = new StringBuilder();
        List<Event> events = trace.events();
        for (int i = 0; i < events.size(); i++) {
            sb.append(i).append(": ").append(format(events.get(i))).append('\n');
        }
        return sb.toString();
    }

    public static String format(Event e) {
        if (e instanceof Event.Read r) {
            return "rd(" + r.thread() + "," + r.location() + ")";
        } else if (e instanceof Event.Write w) {
            return "wr(" + w.thread() + "," + w.location() + "," + w.value() + ")";
        } else if (e instanceof Event.Acquire a) {
            return "acq(" + a.thread() + "," + a.sync() + ")";
        } else if (e instanceof Event.Release r) {
            return "rel(" + r.thread() + "," + r.sync() + ")";
        } else if (e instanceof Event.VolatileRead v) {
            return "vrd(" + v.thread() + "," + v.sync() + ")";
        } else if (e instanceof Event.VolatileWrite v) {
            return "vwr(" + v.thread() + "," + v.sync() + ")";
        } else if (e instanceof Event.Fork f) {
            return "fork(" + f.thread() + "," + f.child() + ")";
        } else if (e instanceof Event.Join j) {
            return "join(" + j.thread() + "," + j.joined() + ")";
        } else if (e instanceof Event.New n) {
            return "new(" + n.thread() + "," + n.firstLocation() + "," + n.count() + ")";
        } else if (e instanceof Event.ClinitWrite c) {
            return "clinit(" + c.thread() + "," + c.location() + "," + c.value() + ")";
        }
        throw new IllegalArgumentException("unknown event " + e);
    }
}
