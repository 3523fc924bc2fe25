# ruff: noqa: RUF001  (the words are Russian, Thai, Persian and Lao on purpose)
"""Error words for people in the five languages of the client (PROTOCOL §2a "lang").

The services and the engine say what went wrong in English; here those messages are
matched against templates and said again in the player's language. Error `code`s never
change; a message without a template falls back to its code's general sentence, so a
Russian player never reads English. Placeholders ({tile}, {n}, ...) carry the details.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from fastapi import FastAPI, Request, Response
from fastapi.exception_handlers import http_exception_handler
from starlette.exceptions import HTTPException as StarletteHTTPException

LANGUAGES = ("en", "ru", "th", "fa", "lo")
DEFAULT = "en"

# English template -> (ru, th, fa, lo).
MESSAGES: dict[str, tuple[str, str, str, str]] = {
    "no table {table}": (
        "стола {table} нет",
        "ไม่มีโต๊ะ {table}",
        "میز {table} وجود ندارد",
        "ບໍ່ມີໂຕະ {table}",
    ),
    "you are not seated at this table": (
        "вы не сидите за этим столом",
        "คุณไม่ได้นั่งที่โต๊ะนี้",
        "شما پشت این میز ننشسته‌اید",
        "ທ່ານບໍ່ໄດ້ນັ່ງຢູ່ໂຕະນີ້",
    ),
    "only players seated at this table can chat": (
        "писать в чат могут только игроки этого стола",
        "เฉพาะผู้เล่นที่นั่งโต๊ะนี้เท่านั้นที่แชทได้",
        "فقط بازیکنان این میز می‌توانند گفتگو کنند",
        "ສະເພາະຜູ້ຫຼິ້ນທີ່ນັ່ງໂຕະນີ້ເທົ່ານັ້ນທີ່ລົມກັນໄດ້",
    ),
    "the game is over": (
        "игра окончена",
        "เกมจบแล้ว",
        "بازی تمام شده است",
        "ເກມຈົບແລ້ວ",
    ),
    "there is no game in progress": (
        "игра не идёт",
        "ไม่มีเกมที่กำลังเล่นอยู่",
        "بازی‌ای در جریان نیست",
        "ບໍ່ມີເກມທີ່ກຳລັງຫຼິ້ນ",
    ),
    "your time ran out": (
        "ваше время вышло",
        "หมดเวลาของคุณแล้ว",
        "وقت شما تمام شد",
        "ໝົດເວລາຂອງທ່ານແລ້ວ",
    ),
    "it is not your turn": (
        "сейчас не ваш ход",
        "ยังไม่ถึงตาคุณ",
        "نوبت شما نیست",
        "ຍັງບໍ່ທັນຮອດຕາທ່ານ",
    ),
    "the next round starts in {n} s": (
        "следующий кон начнётся через {n} с",
        "รอบถัดไปเริ่มในอีก {n} วินาที",
        "دور بعد تا {n} ثانیه دیگر شروع می‌شود",
        "ຮອບຕໍ່ໄປເລີ່ມໃນອີກ {n} ວິນາທີ",
    ),
    "the table is at seq {a}, your move was for {b}": (
        "стол уже на шаге {a}, ваш ход был для шага {b}",
        "โต๊ะอยู่ที่ลำดับ {a} แล้ว ตาเดินของคุณเป็นของลำดับ {b}",
        "میز در گام {a} است، حرکت شما برای گام {b} بود",
        "ໂຕະຢູ່ລຳດັບ {a} ແລ້ວ ການຫຼິ້ນຂອງທ່ານແມ່ນສຳລັບລຳດັບ {b}",
    ),
    "the table changed meanwhile, look again": (
        "за это время на столе что-то изменилось, посмотрите ещё раз",
        "โต๊ะเปลี่ยนไประหว่างนี้ ลองดูอีกครั้ง",
        "میز در این میان تغییر کرد، دوباره نگاه کنید",
        "ໂຕະປ່ຽນໄປລະຫວ່າງນີ້ ລອງເບິ່ງອີກຄັ້ງ",
    ),
    "the table is busy, try again": (
        "стол занят, попробуйте ещё раз",
        "โต๊ะไม่ว่าง ลองอีกครั้ง",
        "میز مشغول است، دوباره تلاش کنید",
        "ໂຕະບໍ່ຫວ່າງ ລອງອີກຄັ້ງ",
    ),
    "you are already seated at this table": (
        "вы уже сидите за этим столом",
        "คุณนั่งที่โต๊ะนี้อยู่แล้ว",
        "شما از قبل پشت این میز نشسته‌اید",
        "ທ່ານນັ່ງຢູ່ໂຕະນີ້ແລ້ວ",
    ),
    "the game has already started": (
        "игра уже началась",
        "เกมเริ่มไปแล้ว",
        "بازی از قبل شروع شده است",
        "ເກມເລີ່ມແລ້ວ",
    ),
    "the table is full": (
        "за столом нет мест",
        "โต๊ะเต็มแล้ว",
        "میز پر است",
        "ໂຕະເຕັມແລ້ວ",
    ),
    "there is no seat {seat}": (
        "места {seat} нет",
        "ไม่มีที่นั่ง {seat}",
        "صندلی {seat} وجود ندارد",
        "ບໍ່ມີບ່ອນນັ່ງ {seat}",
    ),
    "seat {seat} is taken": (
        "место {seat} занято",
        "ที่นั่ง {seat} มีคนนั่งแล้ว",
        "صندلی {seat} گرفته شده است",
        "ບ່ອນນັ່ງ {seat} ມີຄົນນັ່ງແລ້ວ",
    ),
    "could not create the table, try again": (
        "не удалось создать стол, попробуйте ещё раз",
        "สร้างโต๊ะไม่สำเร็จ ลองอีกครั้ง",
        "ساختن میز ممکن نشد، دوباره تلاش کنید",
        "ສ້າງໂຕະບໍ່ສຳເລັດ ລອງອີກຄັ້ງ",
    ),
    "a rematch is offered once the game is over": (
        "реванш предлагают после окончания игры",
        "ขอเล่นใหม่ได้เมื่อเกมจบแล้วเท่านั้น",
        "بازی دوباره پس از پایان بازی پیشنهاد می‌شود",
        "ຂໍຫຼິ້ນໃໝ່ໄດ້ເມື່ອເກມຈົບແລ້ວເທົ່ານັ້ນ",
    ),
    "live store unavailable, try again shortly": (
        "сервер временно недоступен, попробуйте чуть позже",
        "เซิร์ฟเวอร์ไม่พร้อมชั่วคราว ลองใหม่อีกสักครู่",
        "سرور موقتاً در دسترس نیست، کمی بعد دوباره تلاش کنید",
        "ເຊີບເວີບໍ່ພ້ອມຊົ່ວຄາວ ລອງໃໝ່ອີກຈັກໜ່ອຍ",
    ),
    "database unavailable, try again shortly": (
        "база данных временно недоступна, попробуйте чуть позже",
        "ฐานข้อมูลไม่พร้อมชั่วคราว ลองใหม่อีกสักครู่",
        "پایگاه داده موقتاً در دسترس نیست، کمی بعد دوباره تلاش کنید",
        "ຖານຂໍ້ມູນບໍ່ພ້ອມຊົ່ວຄາວ ລອງໃໝ່ອີກຈັກໜ່ອຍ",
    ),
    "wrong username or password": (
        "неверное имя или пароль",
        "ชื่อผู้ใช้หรือรหัสผ่านไม่ถูกต้อง",
        "نام کاربری یا گذرواژه نادرست است",
        "ຊື່ຜູ້ໃຊ້ ຫຼື ລະຫັດຜ່ານບໍ່ຖືກຕ້ອງ",
    ),
    "name taken": (
        "это имя уже занято",
        "ชื่อนี้มีคนใช้แล้ว",
        "این نام قبلاً گرفته شده است",
        "ຊື່ນີ້ມີຄົນໃຊ້ແລ້ວ",
    ),
    "not authenticated (missing, invalid or expired token)": (
        "вы не вошли (вход истёк или недействителен)",
        "ยังไม่ได้เข้าสู่ระบบ (การเข้าสู่ระบบหมดอายุหรือไม่ถูกต้อง)",
        "وارد نشده‌اید (ورود منقضی یا نامعتبر است)",
        "ຍັງບໍ່ໄດ້ເຂົ້າສູ່ລະບົບ (ໝົດອາຍຸ ຫຼື ບໍ່ຖືກຕ້ອງ)",
    ),
    "log in first (hello with a token)": (
        "сначала войдите",
        "กรุณาเข้าสู่ระบบก่อน",
        "ابتدا وارد شوید",
        "ກະລຸນາເຂົ້າສູ່ລະບົບກ່ອນ",
    ),
    "game not found": (
        "игра не найдена",
        "ไม่พบเกม",
        "بازی پیدا نشد",
        "ບໍ່ພົບເກມ",
    ),
    "player not found": (
        "игрок не найден",
        "ไม่พบผู้เล่น",
        "بازیکن پیدا نشد",
        "ບໍ່ພົບຜູ້ຫຼິ້ນ",
    ),
    "too many messages; slow down": (
        "слишком много сообщений, помедленнее",
        "ส่งข้อความถี่เกินไป ช้าลงหน่อย",
        "پیام‌ها بیش از حد زیاد است، آهسته‌تر",
        "ສົ່ງຂໍ້ຄວາມຖີ່ເກີນໄປ ຊ້າລົງແດ່",
    ),
    "too many requests; slow down": (
        "слишком много запросов, помедленнее",
        "คำขอถี่เกินไป ช้าลงหน่อย",
        "درخواست‌ها بیش از حد زیاد است، آهسته‌تر",
        "ຄຳຂໍຖີ່ເກີນໄປ ຊ້າລົງແດ່",
    ),
    "too many new connections; slow down": (
        "слишком много новых подключений, помедленнее",
        "เชื่อมต่อใหม่ถี่เกินไป ช้าลงหน่อย",
        "اتصال‌های تازه بیش از حد زیاد است، آهسته‌تر",
        "ເຊື່ອມຕໍ່ໃໝ່ຖີ່ເກີນໄປ ຊ້າລົງແດ່",
    ),
    "too many open connections; close another tab first": (
        "слишком много открытых подключений, сначала закройте другую вкладку",
        "เปิดการเชื่อมต่อไว้มากเกินไป ปิดแท็บอื่นก่อน",
        "اتصال‌های باز بیش از حد است، اول یک زبانهٔ دیگر را ببندید",
        "ເປີດການເຊື່ອມຕໍ່ໄວ້ຫຼາຍເກີນໄປ ປິດແທັບອື່ນກ່ອນ",
    ),
    "you already have {n} tables waiting for players; start or leave one first": (
        "у вас уже {n} стола ждут игроков; начните игру за одним из них или покиньте его",
        "คุณมีโต๊ะที่รอผู้เล่นอยู่แล้ว {n} โต๊ะ เริ่มเล่นหรือออกจากโต๊ะหนึ่งก่อน",
        "شما هم‌اکنون {n} میز منتظر بازیکن دارید؛ اول یکی را شروع کنید یا ترک کنید",
        "ທ່ານມີໂຕະທີ່ລໍຖ້າຜູ້ຫຼິ້ນຢູ່ແລ້ວ {n} ໂຕະ ເລີ່ມຫຼິ້ນ ຫຼື ອອກຈາກໂຕະໜຶ່ງກ່ອນ",
    ),
    "the game has not started, so there is nothing to resign; leave the table to give up"
    " your seat": (
        "игра ещё не началась, сдаваться нечего; чтобы освободить место, покиньте стол",
        "เกมยังไม่เริ่ม จึงไม่มีอะไรให้ยอมแพ้ ออกจากโต๊ะเพื่อสละที่นั่ง",
        "بازی هنوز شروع نشده و چیزی برای واگذاری نیست؛ برای رها کردن جایتان میز را ترک کنید",
        "ເກມຍັງບໍ່ເລີ່ມ ຈຶ່ງບໍ່ມີຫຍັງໃຫ້ຍອມແພ້ ອອກຈາກໂຕະເພື່ອສະລະບ່ອນນັ່ງ",
    ),
    "chat text is empty": (
        "пустое сообщение",
        "ข้อความแชทว่างเปล่า",
        "متن گفتگو خالی است",
        "ຂໍ້ຄວາມແຊັດຫວ່າງເປົ່າ",
    ),
    # the engine's words for a refused placement
    "{tile} is not in your hand": (
        "костяшки {tile} нет у вас в руке",
        "คุณไม่มี {tile} ในมือ",
        "مهره {tile} در دست شما نیست",
        "ທ່ານບໍ່ມີ {tile} ໃນມື",
    ),
    "{tile} matches neither end ({a} and {b})": (
        "{tile} не подходит ни к одному концу ({a} и {b})",
        "{tile} ต่อไม่ได้ทั้งสองปลาย ({a} และ {b})",
        "{tile} به هیچ‌یک از دو سر نمی‌خورد ({a} و {b})",
        "{tile} ຕໍ່ບໍ່ໄດ້ທັງສອງປາຍ ({a} ແລະ {b})",
    ),
    "{tile} fits both ends: say 'left' or 'right'": (
        "{tile} подходит к обоим концам: выберите левый или правый",
        "{tile} ต่อได้ทั้งสองปลาย: เลือกซ้ายหรือขวา",
        "{tile} به هر دو سر می‌خورد: چپ یا راست را انتخاب کنید",
        "{tile} ຕໍ່ໄດ້ທັງສອງປາຍ: ເລືອກຊ້າຍ ຫຼື ຂວາ",
    ),
    "{tile} does not match the {end} end ({n})": (
        "{tile} не подходит к этому концу ({n})",
        "{tile} ต่อปลายนี้ไม่ได้ ({n})",
        "{tile} به این سر نمی‌خورد ({n})",
        "{tile} ຕໍ່ປາຍນີ້ບໍ່ໄດ້ ({n})",
    ),
    "the first lead must be {tile}": (
        "первым ходом нужно выложить {tile}",
        "การลงครั้งแรกต้องเป็น {tile}",
        "نخستین حرکت باید {tile} باشد",
        "ການລົງຄັ້ງທຳອິດຕ້ອງເປັນ {tile}",
    ),
    "{tile} is written backwards: say {good}": (
        "{tile} записана задом наперёд: пишите {good}",
        "{tile} เขียนกลับด้าน: ให้เขียน {good}",
        "{tile} وارونه نوشته شده است: {good} بنویسید",
        "{tile} ຂຽນກັບດ້ານ: ໃຫ້ຂຽນ {good}",
    ),
    "cross-origin request refused": (
        "запрос с чужого сайта отклонён",
        "ปฏิเสธคำขอจากเว็บไซต์อื่น",
        "درخواست از سایت دیگر پذیرفته نشد",
        "ປະຕິເສດຄຳຂໍຈາກເວັບໄຊອື່ນ",
    ),
    "wrong password": (
        "неверный пароль",
        "รหัสผ่านไม่ถูกต้อง",
        "رمز عبور نادرست است",
        "ລະຫັດຜ່ານບໍ່ຖືກຕ້ອງ",
    ),
    # Fair play: computer players, sockets per address, message ids.
    "a rated table is for people only; play computer players at a casual table": (
        "рейтинговый стол только для людей; с компьютером играйте за обычным столом",
        "โต๊ะจัดอันดับสำหรับคนเท่านั้น เล่นกับคอมพิวเตอร์ที่โต๊ะทั่วไป",
        "میز امتیازی فقط برای آدم‌هاست؛ با رایانه سر میز دوستانه بازی کنید",
        "ໂຕະຈັດອັນດັບສຳລັບຄົນເທົ່ານັ້ນ ຫຼິ້ນກັບຄອມພິວເຕີຢູ່ໂຕະທົ່ວໄປ",
    ),
    "too many open connections from your address; close some first": (
        "слишком много открытых подключений с вашего адреса, сначала закройте часть из них",
        "เปิดการเชื่อมต่อจากที่อยู่ของคุณไว้มากเกินไป ปิดบางส่วนก่อน",
        "اتصال‌های باز از نشانی شما بیش از حد است، اول چندتا را ببندید",
        "ເປີດການເຊື່ອມຕໍ່ຈາກທີ່ຢູ່ຂອງທ່ານໄວ້ຫຼາຍເກີນໄປ ປິດບາງອັນກ່ອນ",
    ),
}

# A code's general sentence, for a message without its own template.
BY_CODE: dict[str, tuple[str, str, str, str, str]] = {
    "rate_limited": (
        "too many messages; slow down",
        "слишком много сообщений, помедленнее",
        "ส่งข้อความถี่เกินไป ช้าลงหน่อย",
        "پیام‌ها بیش از حد زیاد است، آهسته‌تر",
        "ສົ່ງຂໍ້ຄວາມຖີ່ເກີນໄປ ຊ້າລົງແດ່",
    ),
    "bad_request": (
        "the request was not understood",
        "запрос не понят",
        "ไม่เข้าใจคำขอ",
        "درخواست فهمیده نشد",
        "ບໍ່ເຂົ້າໃຈຄຳຂໍ",
    ),
    "unauthorized": (
        "please sign in",
        "пожалуйста, войдите",
        "กรุณาเข้าสู่ระบบ",
        "لطفاً وارد شوید",
        "ກະລຸນາເຂົ້າສູ່ລະບົບ",
    ),
    "not_found": (
        "not found",
        "не найдено",
        "ไม่พบ",
        "پیدا نشد",
        "ບໍ່ພົບ",
    ),
    "not_seated": (
        "you are not seated at this table",
        "вы не сидите за этим столом",
        "คุณไม่ได้นั่งที่โต๊ะนี้",
        "شما پشت این میز ننشسته‌اید",
        "ທ່ານບໍ່ໄດ້ນັ່ງຢູ່ໂຕະນີ້",
    ),
    "game_over": (
        "the game is over",
        "игра окончена",
        "เกมจบแล้ว",
        "بازی تمام شده است",
        "ເກມຈົບແລ້ວ",
    ),
    "stale": (
        "the table moved on; look again",
        "на столе что-то изменилось, посмотрите ещё раз",
        "โต๊ะเปลี่ยนไปแล้ว ลองดูอีกครั้ง",
        "میز تغییر کرده است، دوباره نگاه کنید",
        "ໂຕະປ່ຽນໄປແລ້ວ ລອງເບິ່ງອີກຄັ້ງ",
    ),
    "not_your_turn": (
        "it is not your turn",
        "сейчас не ваш ход",
        "ยังไม่ถึงตาคุณ",
        "نوبت شما نیست",
        "ຍັງບໍ່ທັນຮອດຕາທ່ານ",
    ),
    "illegal_move": (
        "that move is not allowed",
        "так ходить нельзя",
        "เดินแบบนี้ไม่ได้",
        "این حرکت مجاز نیست",
        "ຫຼິ້ນແບບນີ້ບໍ່ໄດ້",
    ),
    "unavailable": (
        "the server is busy; try again shortly",
        "сервер занят, попробуйте чуть позже",
        "เซิร์ฟเวอร์ไม่ว่าง ลองใหม่อีกสักครู่",
        "سرور مشغول است، کمی بعد دوباره تلاش کنید",
        "ເຊີບເວີບໍ່ຫວ່າງ ລອງໃໝ່ອີກຈັກໜ່ອຍ",
    ),
}


@cache
def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    regex = "".join(
        re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)" for i, part in enumerate(parts)
    )
    return re.compile(f"^{regex}$")


def pick_language(wanted: str | Iterable[str] | None) -> str:
    """The first supported language among `wanted` (a code, an Accept-Language header or
    a list of codes); English if none."""
    if wanted is None:
        return DEFAULT
    items = wanted.split(",") if isinstance(wanted, str) else list(wanted)
    for item in items:
        code = item.split(";")[0].strip().lower().replace("_", "-").split("-")[0]
        if code in LANGUAGES:
            return code
    return DEFAULT


def translate(message: str, lang: str, code: str | None = None) -> str:
    """`message` said in `lang` (English is returned as it is)."""
    if lang not in LANGUAGES or lang == DEFAULT:
        return message
    index = LANGUAGES.index(lang) - 1
    # Names of tiles and tables are quoted in English messages; the words carry them bare.
    bare = message.replace("'", "")
    for template, words in MESSAGES.items():
        found = _pattern(template).match(bare) or _pattern(template).match(message)
        if found:
            return words[index].format(**found.groupdict())
    if code in BY_CODE:
        return BY_CODE[code][index + 1]
    return message


async def _translated_http_error(request: Request, error: Exception) -> Response:
    """Starlette's own answer, with a string `detail` said in the request's language."""
    assert isinstance(error, StarletteHTTPException)
    lang = pick_language(request.headers.get("accept-language"))
    if isinstance(error.detail, str) and lang != DEFAULT:
        code = _HTTP_CODES.get(error.status_code)
        error = StarletteHTTPException(
            error.status_code, translate(error.detail, lang, code), error.headers
        )
    return await http_exception_handler(request, error)


_HTTP_CODES = {401: "unauthorized", 404: "not_found", 409: "bad_request", 429: "rate_limited",
               503: "unavailable"}


def install_translations(app: FastAPI) -> None:
    app.add_exception_handler(StarletteHTTPException, _translated_http_error)
