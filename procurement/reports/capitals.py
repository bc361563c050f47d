"""Amounts in Chinese capital numerals (大写金额) as invoices and quotes print them.

Rules (会计基础工作规范, 财政部 1996 第六十三条 / 支付结算办法 附件一 "正确填写票据和结算凭证的基本规定"):
- digits 零壹贰叁肆伍陆柒捌玖, units 拾佰仟 within a group of four, groups 万 and 亿;
- an amount to the yuan, or to the jiao with no fen, ends with 整 (正); one with fen does not;
- zeros between non-zero digits are written once as 零 (1,005 → 壹仟零伍元; 10,005 → 壹万零伍元);
  a zero at the end of a group before the next unit is not written unless a non-zero digit follows it;
- the jiao digit is 零 when the yuan part is non-zero, the jiao is zero and there are fen (1,000.05 →
  壹仟元零伍分); under one yuan starts with the jiao or fen (0.05 → 伍分);
- the text starts with 人民币 when printed on paper (the caller adds it).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

DIGITS = "零壹贰叁肆伍陆柒捌玖"
UNITS = ("", "拾", "佰", "仟")
GROUPS = ("", "万", "亿", "万亿")


def _group(n: int) -> str:
    """0 < n < 10,000 in capitals, with inner zeros written once; no leading/trailing 零."""
    out: list[str] = []
    zero = False
    for pos in range(3, -1, -1):
        d = n // 10**pos % 10
        if d == 0:
            zero = bool(out)
            continue
        if zero:
            out.append("零")
            zero = False
        out.append(DIGITS[d] + UNITS[pos])
    return "".join(out)


def _yuan(n: int) -> str:
    if n == 0:
        return ""
    groups: list[int] = []
    while n:
        groups.append(n % 10_000)
        n //= 10_000
    if len(groups) > len(GROUPS):
        raise ValueError("amount too large for capital numerals")
    out: list[str] = []
    need_zero = False
    for i in range(len(groups) - 1, -1, -1):
        g = groups[i]
        if g == 0:
            need_zero = bool(out)
            continue
        if out and (need_zero or g < 1000):
            out.append("零")  # a gap: a whole zero group, or a group shorter than four digits after another
        out.append(_group(g) + GROUPS[i])
        need_zero = False
    return "".join(out)


def capital_amount(amount: Decimal | float | int | str) -> str:
    """'553225.38' → '伍拾伍万叁仟贰佰贰拾伍元叁角捌分'; '10005' → '壹万零伍元整'; '0' → '零元整'."""
    value = Decimal(str(amount)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    if value < 0:
        return "负" + capital_amount(-value)
    fen_total = int(value * 100)
    yuan, rest = divmod(fen_total, 100)
    jiao, fen = divmod(rest, 10)
    head = _yuan(yuan)
    if yuan == 0 and rest == 0:
        return "零元整"
    out = head + "元" if yuan else ""
    if jiao:
        out += DIGITS[jiao] + "角"
    elif fen and yuan:
        out += "零"  # 壹仟元零伍分
    if fen:
        out += DIGITS[fen] + "分"
    else:
        out += "整"
    return out
