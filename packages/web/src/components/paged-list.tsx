import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { t } from "../i18n.ts";

/**
 * The one list of the website (docs/design/website.md#lists-and-the-pager): a named table in a
 * container that scrolls sideways by itself on a narrow screen, and under it the pager, which says
 * which rows of how many are shown ("51–100 of 495") with Previous and Next. Every account list and
 * every list of an item page is drawn with it, so no list is ever cut without a word.
 */

/** Where a page of a list lies in the whole, and how to move to its neighbours. */
export interface PageRange {
  /** The first row shown, counted from 1; 0 when the page is empty. */
  from: number;
  /** The last row shown. */
  to: number;
  /** Every row of the list. */
  total: number;
  previous?: (() => void) | undefined;
  next?: (() => void) | undefined;
  /** Set when the page shown is past the end (rows left meanwhile): moves to the last page. */
  beyondEnd?: (() => void) | undefined;
}

/** A page as the routes answer one: `page_num` from 1, `page_size` rows, `total_count` in all. */
interface AnsweredPage {
  items: readonly unknown[];
  page_num: number;
  page_size: number;
  total_count: number;
}

/**
 * Which page of a list to ask for (`query`, spread into the route's query) and its range once
 * answered. `page_size` is the route's own `page_size`, so the pager counts what the server counted.
 */
export function usePaging(pageSize: number) {
  const [pageNum, setPageNum] = useState(1);
  return {
    pageNum,
    /** Back to the first page, for a list whose sort or filter changed. */
    restart: () => setPageNum(1),
    query: { page_num: pageNum, page_size: pageSize },
    range: (page: AnsweredPage | undefined): PageRange | undefined => {
      if (!page) return undefined;
      const before = (page.page_num - 1) * page.page_size;
      const lastPage = Math.max(1, Math.ceil(page.total_count / page.page_size));
      return {
        from: page.items.length > 0 ? before + 1 : 0,
        to: before + page.items.length,
        total: page.total_count,
        previous: page.page_num > 1 ? () => setPageNum(Math.min(page.page_num - 1, lastPage)) : undefined,
        next: before + page.items.length < page.total_count ? () => setPageNum(page.page_num + 1) : undefined,
        beyondEnd: page.items.length === 0 && page.page_num > 1 ? () => setPageNum(lastPage) : undefined,
      };
    },
  };
}

/** "n–m of N" and Previous and Next, in a navigation landmark named after the list. */
export function Pager(props: { label: string; range: PageRange }) {
  const { from, to, total, previous, next, beyondEnd } = props.range;
  useEffect(() => beyondEnd?.(), [beyondEnd !== undefined, total]);
  if (total === 0) return null;
  return (
    <nav class="pager" aria-label={t("Pages of {list}", { list: props.label })}>
      {previous || next ? (
        <button type="button" disabled={!previous} onClick={previous}>
          {t("Previous")}
        </button>
      ) : null}
      <span aria-live="polite">{t("{from}–{to} of {total}", { from, to, total })}</span>
      {previous || next ? (
        <button type="button" disabled={!next} onClick={next}>
          {t("Next")}
        </button>
      ) : null}
    </nav>
  );
}

/**
 * A named table of rows (`children`, its `<tr>`s) under `headers`, in a container that scrolls
 * sideways on its own when the table is wider than the screen (and is then a tab stop), with the
 * pager under it.
 */
export function ListTable(props: {
  label: string;
  headers: readonly ComponentChildren[];
  range?: PageRange | undefined;
  children: ComponentChildren;
}) {
  const box = useRef<HTMLDivElement>(null);
  const scrolls = useScrolls(box);
  return (
    <>
      <div class="table-scroll" ref={box} tabIndex={scrolls ? 0 : undefined}>
        <table aria-label={props.label}>
          <thead>
            <tr>
              {props.headers.map((header, index) => (
                <th scope="col" key={index}>
                  {header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{props.children}</tbody>
        </table>
      </div>
      {props.range ? <Pager label={props.label} range={props.range} /> : null}
    </>
  );
}

/**
 * Whether the box is narrower than what it holds: then it scrolls, and is made a tab stop so the
 * keyboard can scroll it too (a table of text alone has nothing else to focus).
 */
function useScrolls(box: { current: HTMLElement | null }): boolean {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return scrolls;
}

/** A column without a visible heading (its buttons name themselves), still named for screen readers. */
export function HiddenHeader(props: { text: string }) {
  return <span class="visually-hidden">{props.text}</span>;
}
