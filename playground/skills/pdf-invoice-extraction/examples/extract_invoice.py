"""Extract header fields, line items and totals from a text-based invoice PDF.

Usage: python extract_invoice.py invoice.pdf > invoice.json
Prints JSON matching resources/invoice.schema.json. Requires: pip install pypdf
Scanned (image-only) PDFs yield no text: route them to OCR instead.
"""

from __future__ import annotations

import json
import re
import sys
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path

from pypdf import PdfReader

MAX_BYTES = 10 * 1024 * 1024  # hostile PDFs can be huge or decompress to gigabytes (CWE-400, CWE-409)
MAX_PAGES = 20
MAX_TEXT = 200_000
CENT = Decimal("0.01")

FIELDS = {
    "invoice_number": re.compile(r"(?:Invoice|Rechnung)\s*(?:No\.?|Number|Nr\.?|#)\s*[:.]?\s*([A-Z0-9][A-Z0-9/-]{2,40})", re.I),
    "issue_date": re.compile(r"(?:Invoice date|Date of issue|Rechnungsdatum)\s*[:.]?\s*([0-9./-]{8,10})", re.I),
    "due_date": re.compile(r"(?:Due date|Payment due|Fällig)\s*[:.]?\s*([0-9./-]{8,10})", re.I),
    "purchase_order": re.compile(r"(?:PO|Purchase order)\s*(?:No\.?|Number|#)?\s*[:.]?\s*([A-Z0-9-]{3,40})", re.I),
    "vat_id": re.compile(r"\b(?:VAT|USt-IdNr\.?)\s*(?:ID|No\.?)?\s*[:.]?\s*([A-Z]{2}[A-Z0-9]{2,13})\b", re.I),
    "iban": re.compile(r"\bIBAN\s*[:.]?\s*([A-Z]{2}[0-9]{2}(?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,3})?)", re.I),
}
TOTALS = {
    "net": re.compile(r"(?:Net total|Subtotal|Nettobetrag)\s*[:.]?\s*(?:[A-Z]{3}|€|\$)?\s*([0-9.,]+)", re.I),
    "tax": re.compile(r"(?:VAT|Tax|MwSt\.?)\s*(?:\d{1,2}\s*%)?\s*[:.]?\s*(?:[A-Z]{3}|€|\$)?\s*([0-9.,]+)\s*$", re.I | re.M),
    "gross": re.compile(r"(?:Total due|Grand total|Gesamtbetrag|Amount due)\s*[:.]?\s*(?:[A-Z]{3}|€|\$)?\s*([0-9.,]+)", re.I),
}
LINE_ITEM = re.compile(r"^(?P<description>[^\d\n][^\n]{2,200}?)\s+(?P<quantity>\d{1,6}(?:[.,]\d{1,3})?)\s+(?P<unit_price>[0-9.,]{1,15})\s+(?P<amount>[0-9.,]{1,15})$", re.M)
TAX_RATE = re.compile(r"(?:VAT|Tax|MwSt\.?)\s*(\d{1,2}(?:[.,]\d{1,2})?)\s*%", re.I)
CURRENCY = re.compile(r"\b(EUR|USD|GBP|CHF|SEK|DKK|PLN)\b|(€)|(\$)")


def read_text(path: Path) -> str:
    if path.stat().st_size > MAX_BYTES:
        raise ValueError(f"{path.name}: larger than {MAX_BYTES} bytes")
    reader = PdfReader(path)
    if reader.is_encrypted:
        raise ValueError(f"{path.name}: encrypted PDF, ask the user for an unprotected copy")
    pages = reader.pages[:MAX_PAGES]
    return "\n".join((page.extract_text() or "") for page in pages)[:MAX_TEXT]


def to_decimal(raw: str) -> Decimal | None:
    """Accepts 1,518.44 and 1.518,44: the last separator is the decimal mark."""
    raw = raw.strip().rstrip(".,")
    last = max(raw.rfind(","), raw.rfind("."))
    if last != -1 and len(raw) - last - 1 in (1, 2):
        raw = re.sub(r"[.,]", "", raw[:last]) + "." + raw[last + 1:]
    else:
        raw = re.sub(r"[.,]", "", raw)
    try:
        return Decimal(raw)
    except InvalidOperation:
        return None


def to_iso_date(raw: str) -> str | None:
    """DD.MM.YYYY and YYYY-MM-DD are unambiguous; slashes are not, so they are rejected."""
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", raw) or re.fullmatch(r"(\d{2})\.(\d{2})\.(\d{4})", raw)
    if not m:
        return None
    parts = [int(p) for p in m.groups()]
    year, month, day = parts if len(m.group(1)) == 4 else parts[::-1]
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def extract(text: str) -> dict:
    warnings: list[str] = []
    found = {key: (m.group(1) if (m := rx.search(text)) else None) for key, rx in FIELDS.items()}
    totals = {key: (to_decimal(m.group(1)) if (m := rx.search(text)) else None) for key, rx in TOTALS.items()}

    rates = {m.group(1).replace(",", ".") for m in TAX_RATE.finditer(text)}
    single_rate = rates.pop() if len(rates) == 1 else None  # mixed rates need a per-line read
    lines = []
    for m in LINE_ITEM.finditer(text):
        qty, unit, amount = (to_decimal(m.group(k)) for k in ("quantity", "unit_price", "amount"))
        if None in (qty, unit, amount) or abs(qty * unit - amount) > CENT:
            continue  # not a line item, or a row we cannot reconcile
        lines.append({"description": m.group("description").strip(), "quantity": str(qty),
                      "unit_price": str(unit), "tax_rate": single_rate, "amount": str(amount)})

    net, tax, gross = totals["net"], totals["tax"], totals["gross"]
    if lines and net is not None and sum(Decimal(l["amount"]) for l in lines) != net:
        warnings.append("line items do not add up to the net total")
    if None not in (net, tax, gross) and abs(net + tax - gross) > CENT:
        warnings.append("net + tax does not equal the gross total")
    currency = CURRENCY.search(text)
    code = {"€": "EUR", "$": "USD"}.get(currency.group(0), currency.group(0)) if currency else None

    required = [found["invoice_number"], to_iso_date(found["issue_date"] or ""), code, net, tax, gross]
    missing = sum(1 for value in required if value is None)
    for name in ("invoice_number", "issue_date"):
        if not found[name]:
            warnings.append(f"{name} not found")

    iban = (found["iban"] or "").replace(" ", "")
    return {
        "invoice_number": found["invoice_number"] or "",
        "issue_date": to_iso_date(found["issue_date"] or "") or "",
        "due_date": to_iso_date(found["due_date"] or ""),
        "currency": code or "",
        "purchase_order": found["purchase_order"],
        "supplier": {"name": text.strip().splitlines()[0][:200] if text.strip() else "",
                     "vat_id": found["vat_id"], "iban_last4": iban[-4:] if iban else None},
        "lines": lines[:500],
        "totals": {k: str((v or Decimal(0)).quantize(CENT)) for k, v in (("net", net), ("tax", tax), ("gross", gross))},
        "confidence": round(max(0.0, 1.0 - 0.15 * missing - 0.1 * len(warnings)), 2),
        "warnings": warnings,
    }


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: extract_invoice.py <invoice.pdf>")
    print(json.dumps(extract(read_text(Path(sys.argv[1]))), indent=2, ensure_ascii=False))
