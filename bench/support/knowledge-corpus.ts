/**
 * A generated, labelled corpus for the knowledge bench: files of `## Section` blocks (one chunk each),
 * half English, half Chinese. Each section mixes common words (Zipf-like, shared by many sections) with
 * two rare "topic" terms (each shared by a few sections); a labelled query names one rare term and two
 * common words of its section, so ranking has to combine them. Deterministic (seeded).
 */
export interface CorpusFile {
  filename: string;
  language: 'en' | 'zh';
  content: string;
}

export interface LabelledQuery {
  language: 'en' | 'zh';
  query: string;
  filename: string;
  chunkIndex: number;
}

const EN_COMMON = (
  'the system data service user report team project budget meeting process review policy customer order ' +
  'market product release network server storage backup security access account password cache queue ' +
  'latency throughput capacity region quarter annual revenue cost profit invoice contract supplier ' +
  'quality test deploy monitor alert incident recovery migration upgrade config parameter schedule ' +
  'training hiring payroll benefit leave travel expense approval audit risk compliance office building ' +
  'room desk laptop phone email message document version archive index search query result analysis ' +
  'trend growth decline forecast target metric dashboard partner vendor shipment warehouse inventory ' +
  'price discount channel campaign support ticket feedback survey design prototype research model'
).split(' ');

const ZH_COMMON = (
  '公司 员工 系统 数据 服务 管理 安全 网络 用户 产品 市场 客户 项目 计划 报告 财务 预算 会议 培训 流程 ' +
  '审批 合同 采购 供应商 质量 测试 部署 服务器 数据库 缓存 接口 文档 版本 发布 监控 日志 告警 备份 恢复 ' +
  '权限 账号 密码 认证 加密 存储 带宽 延迟 性能 优化 架构 设计 开发 维护 升级 迁移 配置 参数 策略 规则 ' +
  '标准 规范 制度 政策 福利 工资 奖金 假期 考勤 招聘 面试 入职 离职 绩效 考核 目标 指标 分析 统计 趋势 ' +
  '增长 下降 季度 年度 区域 城市 仓库 物流 运输 订单 库存 价格 成本 利润 收入 支出 发票 报销 税务 风险'
).split(' ');

const EN_SYLLABLES = 'ka lo mi re tu van sel dor pix quor zen bra fli gom hest jun nol pav rix strom'.split(
  ' ',
);
const ZH_RARE_CHARS = '鲸鹦鹉琥珀翡翠麒麟琉璃玳瑁珊瑚檀樟楠榉桦椴枫栎柘梓芷蘅芸蕙茉莉蔷薇芍药牡丹'.split('');

/** mulberry32: a small seeded PRNG, so the corpus is the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const zipf = (next: () => number, size: number) => Math.min(size - 1, Math.floor(size ** next()) - 1 + 0);

function rareTerms(language: 'en' | 'zh', count: number, next: () => number): string[] {
  const terms = new Set<string>();
  while (terms.size < count) {
    if (language === 'en') {
      const parts = 2 + Math.floor(next() * 2);
      terms.add(
        Array.from({ length: parts }, () => EN_SYLLABLES[Math.floor(next() * EN_SYLLABLES.length)]).join(''),
      );
    } else {
      terms.add(
        Array.from({ length: 2 }, () => ZH_RARE_CHARS[Math.floor(next() * ZH_RARE_CHARS.length)]).join(''),
      );
    }
  }
  return [...terms];
}

export interface Corpus {
  files: CorpusFile[];
  queries: LabelledQuery[];
  sections: number;
}

export function generateCorpus(options: {
  files: number;
  sectionsPerFile: number;
  queriesPerLanguage: number;
  seed?: number;
}): Corpus {
  const next = random(options.seed ?? 16);
  const sectionsPerLanguage = (options.files / 2) * options.sectionsPerFile;
  const rare = {
    en: rareTerms('en', Math.floor(sectionsPerLanguage / 2), next),
    zh: rareTerms('zh', Math.min(ZH_RARE_CHARS.length ** 2 - 1, Math.floor(sectionsPerLanguage / 2)), next),
  };
  const files: CorpusFile[] = [];
  const sections: Array<{
    language: 'en' | 'zh';
    filename: string;
    index: number;
    common: string[];
    rare: string[];
  }> = [];
  for (let f = 0; f < options.files; f++) {
    const language = f % 2 === 0 ? 'en' : 'zh';
    const filename = `${language}-doc-${String(f).padStart(3, '0')}.md`;
    const common = language === 'en' ? EN_COMMON : ZH_COMMON;
    const blocks = [`# Document ${f}`];
    for (let s = 0; s < options.sectionsPerFile; s++) {
      const words = Array.from(
        { length: language === 'en' ? 55 : 70 },
        () => common[zipf(next, common.length)],
      );
      const topics = [0, 1].map(() => rare[language][Math.floor(next() * rare[language].length)]);
      words.splice(Math.floor(next() * words.length), 0, topics[0]);
      words.splice(Math.floor(next() * words.length), 0, topics[1]);
      const text =
        language === 'en'
          ? `${words.join(' ')}.`
          : words.map((word, i) => (i % 9 === 8 ? `${word}。` : i % 3 === 2 ? `${word}，` : word)).join('');
      blocks.push(`## Section ${s}`, text);
      sections.push({
        language,
        filename,
        index: s,
        common: words.filter((w) => !topics.includes(w)),
        rare: topics,
      });
    }
    files.push({ filename, language, content: blocks.join('\n\n') });
  }
  const queries: LabelledQuery[] = [];
  for (const language of ['en', 'zh'] as const) {
    const own = sections.filter((section) => section.language === language);
    for (let q = 0; q < options.queriesPerLanguage; q++) {
      const section = own[Math.floor(next() * own.length)];
      const picks = [section.rare[0], section.common[Math.floor(next() * section.common.length)]];
      picks.push(section.common[Math.floor(next() * section.common.length)]);
      queries.push({
        language,
        query: picks.join(language === 'en' ? ' ' : ''),
        filename: section.filename,
        chunkIndex: section.index,
      });
    }
  }
  return { files, queries, sections: sections.length };
}
