// A worker that runs the first uses of the browser's Intl for the page's language, started by
// theme-init.js before the first paint. The first Intl.NumberFormat or Intl.DateTimeFormat of a
// renderer process loads ICU's data: 20–40 ms of a desktop's main thread, four times that on a
// phone, and every page's first render formats a count or a date. ICU keeps that data for the
// whole process, so loaded here, on a thread of its own, the main thread's first uses take
// under a millisecond (bench/README.md, "ICU's first use on a worker").
const language = self.name || 'en';
try {
  new Intl.PluralRules(language).select(1);
  new Intl.NumberFormat(language).format(1234);
  new Intl.DateTimeFormat(language, { dateStyle: 'full', timeStyle: 'short' }).format(0);
  new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric' }).format(0);
} catch {
  // A language this browser's ICU does not know: the page's own first use says so, not this.
}
close();
