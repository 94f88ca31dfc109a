"""Everyday questions and the articles a lawyer would cite for them: the statute search, measured.

The list was written before the search was tuned (the first seven come from a new-user trial, the
rest are our own; the last eight were held out while the topic glossary was written, and failed
before it), and it is checked as a whole: hit@3 — one of the expected articles among the
first three verified citations of the answer — over all questions, not question by question.
Run `python -m tests.test_legal_retrieval_eval` for the per-question report.
"""

from __future__ import annotations

from tests.support.legal import GraphRunner, knowledge, legal_index  # noqa: F401  (fixtures)

# (question, {(law short name, article), ...}) — any one of them in the top three is a hit.
EVAL: list[tuple[str, set[tuple[str, str]]]] = [
    ("邻居装修把我家墙震裂了", {("民法典", "288"), ("民法典", "296"), ("民法典", "1165")}),
    ("朋友借了5万不还只有微信聊天记录", {("民法典", "667"), ("民法典", "675"), ("民法典", "676")}),
    ("我在超市滑倒摔断了腿，超市说地上有警示牌不负责", {("民法典", "1198")}),
    ("我的原创文章被公众号抄袭", {("著作权法", "52"), ("著作权法", "54")}),
    ("父亲去世没留遗嘱房产怎么继承", {("民法典", "1127"), ("民法典", "1123")}),
    ("公司不交社保我能辞职要补偿吗", {("劳动合同法", "46"), ("劳动合同法", "38")}),
    ("我租的房子房东突然要收回，租期还没到，怎么办", {("民法典", "708"), ("民法典", "577"), ("民法典", "703"), ("民法典", "725")}),
    ("老板拖欠了我两个月工资一直不发", {("劳动合同法", "30"), ("劳动合同法", "85"), ("劳动法", "50")}),
    ("公司一直没跟我签劳动合同，已经干了半年", {("劳动合同法", "82"), ("劳动合同法", "10")}),
    ("网上买的衣服不喜欢想退货，商家不给退", {("消费者权益保护法", "25")}),
    ("在饭店吃饭吃出了苍蝇，拉肚子住院了", {("食品安全法", "148"), ("消费者权益保护法", "49"), ("消费者权益保护法", "48"),
                                        ("民法典", "1202"), ("民法典", "1203")}),
    ("被邻居家的狗咬伤了，谁负责", {("民法典", "1245"), ("民法典", "1246"), ("民法典", "1247")}),
    ("楼上扔下来的花盆砸坏了我的车", {("民法典", "1254")}),
    ("我老公婚内出轨，我要离婚，能要求他赔偿吗", {("民法典", "1091"), ("民法典", "1079")}),
    ("被人打了一顿鉴定是轻伤，对方要坐牢吗", {("刑法", "234")}),
    ("买的二手车是事故车，卖家故意隐瞒了", {("民法典", "148"), ("消费者权益保护法", "55"), ("民法典", "617"), ("民法典", "582")}),
    ("试用期被公司随便找个理由辞退了", {("劳动合同法", "21"), ("劳动合同法", "39"), ("劳动合同法", "48"), ("劳动合同法", "87")}),
    ("上班路上骑电动车出了车祸，算工伤吗", {("社会保险法", "36"), ("社会保险法", "37"), ("社会保险法", "38")}),
    ("借钱给别人约定的利息很高，法院支持吗", {("民法典", "680")}),
    ("孩子在学校被同学打伤了，学校有责任吗", {("民法典", "1199"), ("民法典", "1200"), ("民法典", "1201")}),
    ("我写的小说被人改编拍成了网剧，没经过我同意", {("著作权法", "10"), ("著作权法", "52"), ("著作权法", "53")}),
    ("快递丢了，快递公司说只赔三倍运费", {("民法典", "832"), ("民法典", "833"), ("民法典", "497"), ("民法典", "496")}),
    ("租的房子漏水，房东一直拖着不修", {("民法典", "712"), ("民法典", "713")}),
    ("买的手机用了一个月就坏了，商家不给换", {("消费者权益保护法", "24"), ("产品质量法", "40")}),
    ("健身房老板跑路了，办卡的钱怎么要回来", {("消费者权益保护法", "53")}),
    ("老公偷偷把家里的存款转到他妈妈名下", {("民法典", "1092"), ("民法典", "1062")}),
    ("被车撞了，司机开车逃跑了，医药费找谁", {("民法典", "1216"), ("道路交通安全法", "70"), ("道路交通安全法", "75")}),
    ("App不同意读取通讯录就不让用", {("个人信息保护法", "16"), ("个人信息保护法", "14")}),
    ("医院手术前没告诉我有风险，术后出了问题", {("民法典", "1219"), ("民法典", "1218")}),
    ("孩子在培训班被别的小孩推倒受伤了", {("民法典", "1199"), ("民法典", "1200"), ("民法典", "1188")}),
]


# Written before the statute search fused embeddings, on topics the glossary (legal_terms.toml) does
# not cover, and kept out of its tuning: BM25 alone scored 5/20, the fused search 9/20; on 2026-11-28, after
# two more days of glossary entries, 6/20 and 10/20 (EVAL 27/30 both ways). Later that day glossary entries for five of its topics
# (missing persons, a chosen guardian, the right of residence, home sales, partnerships), named from its failures but
# written from fresh questions, took BM25 alone to 12/20: those five no longer count as held out. Measured by hand only
# (`python -m tests.test_legal_retrieval_eval --embeddings`): the vectors take minutes to build, and on a
# loaded machine the agents' time limits cut the searches (one such run scored 0/30).
HELDOUT: list[tuple[str, set[tuple[str, str]]]] = [
    ("离职时公司让我签了协议，两年内不能去同行公司上班，可一分钱补偿都没给", {("劳动合同法", "23"), ("劳动合同法", "24")}),
    ("公司出钱送我去国外培训，约定要服务五年，我干了两年就走，要赔多少", {("劳动合同法", "22")}),
    ("离开公司一年多了，还能去申请劳动仲裁吗", {("劳动争议调解仲裁法", "27")}),
    ("工厂里招了好几个十五岁的孩子在车间打工", {("劳动法", "15"), ("未成年人保护法", "61")}),
    ("我把猫寄养在宠物店一周，接回来时猫已经死了", {("民法典", "897"), ("民法典", "888")}),
    ("打篮球时被对方球员撞倒骨折了，能让他赔医药费吗", {("民法典", "1176")}),
    ("小偷半夜翻进我家，我拿棍子把他打伤了，我要负责吗", {("刑法", "20"), ("民法典", "181")}),
    ("我们俩都同意离婚，去民政局登记要等多久才能拿到离婚证", {("民法典", "1077"), ("民法典", "1076"), ("民法典", "1078")}),
    ("分居两年多了，他还是不同意离婚，起诉到法院会判离吗", {("民法典", "1079")}),
    ("离婚后孩子跟我，我想让孩子随我姓，前夫不同意", {("民法典", "1015")}),
    ("丈夫出去打工失联五年了，我能申请宣告他死亡吗", {("民法典", "46"), ("民法典", "40")}),
    ("我没有孩子，想趁现在头脑清楚找侄子将来做我的监护人", {("民法典", "33")}),
    ("房子产权以后归儿子，但想让照顾我多年的保姆一直住在里面直到她终老", {("民法典", "366"), ("民法典", "367"), ("民法典", "368")}),
    ("房子抵押给银行贷了款还没还清，现在能卖房吗", {("民法典", "406")}),
    ("买二手房签了合同交了首付，卖家嫌房价涨了不想卖了", {("民法典", "577"), ("民法典", "580")}),
    ("和朋友合伙开了家奶茶店，现在我想退出，他不让", {("民法典", "976")}),
    ("饭店规定不准自带酒水，还要收开瓶费", {("消费者权益保护法", "26")}),
    ("我是公司的小股东，想查公司账本，公司不给看", {("公司法", "57")}),
    ("我进城落户了，村里要收回我家承包的地", {("民法典", "337")}),
    ("十三岁的孩子持刀抢劫，要坐牢吗", {("刑法", "17")}),
]


async def hits_at_3(knowledge, questions=EVAL) -> list[tuple[str, bool, list[str]]]:
    """(question, hit, first three verified citations) per question."""
    rows = []
    for question, expected in questions:
        run = await GraphRunner(knowledge).ask(question)
        cited = [c for c in run.artifact("legal_answer")["content"]["citations"] if c["verified"]][:3]
        hit = any(c["law"].endswith(law) and c["article"] == article for c in cited for law, article in expected)
        rows.append((question, hit, [f"{c['law'].removeprefix('中华人民共和国')}{c['article']}" for c in cited]))
    return rows


async def test_everyday_questions_find_the_articles_a_lawyer_would_cite(knowledge):
    rows = await hits_at_3(knowledge)
    rate = sum(hit for _, hit, _ in rows) / len(rows)
    # 0.85 of 30: the search before the topic glossary scored 21/30 (0.70).
    assert rate >= 0.85, "\n".join(f"{'✓' if hit else '✗'} {q} → {cited}" for q, hit, cited in rows)


def test_a_question_in_words_no_article_uses_finds_the_article_by_meaning(legal_index):
    from core.legal.statutes import ChinaLawStatutes
    from core.retrieval.embeddings import default_embedder

    # One law's 54 articles keep the build short; the service embeds the everyday laws (~4,700).
    statutes = ChinaLawStatutes(index_path=legal_index, embedder=default_embedder(),
                                embedded_laws=("劳动争议调解仲裁法",))
    statutes.warm_vectors()
    # 不服 / 结果 / 怎么办: BM25 alone ranks two articles of the rural land arbitration law and 48 first,
    # not the article that says a party who rejects the award may sue within fifteen days.
    found = statutes.search("不服仲裁的结果还能怎么办", 3)
    assert "《中华人民共和国劳动争议调解仲裁法》第50条" in [a.citation for a in found]


if __name__ == "__main__":
    import asyncio
    import os
    import sys

    from core.legal import LegalKnowledge
    from core.legal.cases import CaseLibrary
    from core.legal.statutes import ChinaLawStatutes
    from core.retrieval.embeddings import default_embedder
    from tests.support.legal import CASES_DIR

    index = os.environ.get("CHINA_LAW_INDEX") or sys.exit("set CHINA_LAW_INDEX to a built index")
    # --embeddings: the search as the service runs it (vectors built beside the index on first use).
    statutes = ChinaLawStatutes(index_path=index, embedder=default_embedder() if "--embeddings" in sys.argv else None)
    statutes.warm_vectors()
    knowledge = LegalKnowledge(statutes=statutes, cases=CaseLibrary(CASES_DIR))
    for name, questions in (("EVAL", EVAL), ("HELDOUT", HELDOUT)):
        rows = asyncio.run(hits_at_3(knowledge, questions))
        for question, hit, cited in rows:
            print("✓" if hit else "✗", question, "→", " ".join(cited))
        print(f"{name} hit@3 {sum(hit for _, hit, _ in rows)}/{len(rows)}")
