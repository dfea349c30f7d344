package dev.racetriage.agent.trace;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TraceNotationTest {

    @Test
    void parsesThePapersNotationWithNamesMappedToIds() {
        Trace t = Trace.parse("new(0,x,2). acq(0,m); wr(0,x,13) wr(0,y,42)\\n rel(0,m) rd(1,x) vwr(1,v) vrd(0,v) "
                .replace("\\n", "\n") + "fork(0,2) join(0,2) clinit(0,s,7)");
        assertEquals(List.of(
                new Event.New(0, 0, 2),
                new Event.Acquire(0, 0),
                new Event.Write(0, 0, 13),
                new Event.Write(0, 2, 42),
                new Event.Release(0, 0),
                new Event.Read(1, 0),
                new Event.VolatileWrite(1, 1),
                new Event.VolatileRead(0, 1),
                new Event.Fork(0, 2),
                new Event.Join(0, 2),
                new Event.ClinitWrite(0, 3, 7)), t.events());
    }

    @Test
    void numbersAreKeptAndNamesAvoidThem() {
        Trace t = Trace.parse("wr(0,0,1) wr(0,a,2) wr(0,1,3)");
        assertEquals(List.of(new Event.Write(0, 0, 1), new Event.Write(0, 1, 2), new Event.Write(0, 1, 3)),
                t.events(), "a name takes the next free id at its first appearance");
    }

    @Test
    void formatRoundTrips() {
        Trace t = Trace.parse("new(0,0,1) acq(0,5) wr(0,0,13) rel(0,5) fork(0,1) rd(1,0) vwr(1,7) vrd(0,7) "
                + "join(0,1) clinit(0,3,9)");
        String text = t.toString();
        assertTrue(text.startsWith("0: new(0,0,1)\n1: acq(0,5)\n"), text);
        assertEquals(t, Trace.parse(text.replaceAll("(?m)^\\d+: ", "")));
    }

    @Test
    void errorsNameTheOperationAndPosition() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Trace.parse("acq(0,m) lock(0,m)"));
        assertTrue(e.getMessage().contains("'lock(0,m)' at position 9"), e.getMessage());
        assertTrue(e.getMessage().contains("use rd, wr"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Trace.parse("wr(0,x)"));
        assertTrue(e.getMessage().contains("takes 3 arguments"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Trace.parse("rd(0,x"));
    }
}
