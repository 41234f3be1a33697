"""An Arabic name sits beside its rank on the room display like any other (issue 24 item 8: it
sat far right of its rank in the final standings): a name written right to left is isolated
(``bdi``) but aligned as its line is, so the gap between a rank and the name's first letter on
screen is the same small gap for "محمد الأحمد" as for a Latin name."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.fixtures_ending import count_every_table, ended_evening, reveal
from tests.test_room_scale import visit_every_page
from tournament.models import Guest
from tournament.services import ending

ARABIC = "محمد الأحمد"
# For each line of the final standings: the name's text, and the gap in px between the rank's
# right edge and the name's text (its glyphs, not its grid cell) on screen.
GAPS = """() => [...document.querySelectorAll('#room-live .slide.active .leader')].filter((el) => el.offsetParent !== null).map((li) => {
  const name = li.querySelector('.name'), words = document.createRange();
  words.selectNodeContents(name);
  const text = [...words.getClientRects()];
  return [name.textContent.trim(), Math.min(...text.map((r) => r.left)) - li.querySelector('.place').getBoundingClientRect().right,
          parseFloat(getComputedStyle(name).fontSize)];
})"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_arabic_name_sits_beside_its_rank_in_the_final_standings(browser, live_server, host):
    evening = ended_evening(host, 8)
    guest = evening.guests.order_by("pk")[3]
    Guest.objects.filter(pk=guest.pk).update(name=ARABIC, name_key=Guest.fold_name(ARABIC))
    count_every_table(evening)
    evening = reveal(evening, ending.ceremony(evening).steps)
    url = live_server.url + reverse("room", args=[evening.public_key])
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    visit_every_page(page, url, "/tmp/room-bidi")
    page.evaluate("([s, n]) => window.roomDisplay.show(s, n)", ["final", 0])
    gaps = {text: (gap, size) for text, gap, size in page.evaluate(GAPS)}
    assert ARABIC in gaps and len(gaps) == 8, gaps
    widest = max(gap for text, (gap, _) in gaps.items() if text != ARABIC)
    gap, size = gaps[ARABIC]
    assert gap <= widest + 1, f"the Arabic name sits {gap:.0f} px right of its rank, the others {widest:.0f} px at most"
    assert gap < 2 * size
