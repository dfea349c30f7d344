package dev.racetriage.dashboard.export;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CsvExportTest {
  @Test
  void quotesPerRfc4180() {
    assertEquals("plain", CsvExport.cell("plain"));
    assertEquals("\"a,b\"", CsvExport.cell("a,b"));
    assertEquals("\"say \"\"hi\"\"\"", CsvExport.cell("say \"hi\""));
    assertEquals("\"two\nlines\"", CsvExport.cell("two\nlines"));
  }

  @Test
  void defusesSpreadsheetFormulasFromTestOutput() {
    assertEquals("\"'=HYPERLINK(\"\"http://x\"\")\"", CsvExport.cell("=HYPERLINK(\"http://x\")"));
    assertEquals("'+1", CsvExport.cell("+1"));
    assertEquals("'-2+3", CsvExport.cell("-2+3"));
    assertEquals("'@SUM(A1)", CsvExport.cell("@SUM(A1)"));
  }
}
