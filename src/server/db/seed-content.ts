import type { Insertable, Kysely } from 'kysely';
import type { BannersTable, Database, FaqsTable, NewsTable, PagesTable, ProjectsTable } from './schema';

// Demo content for a fresh database: projects, news, FAQs, static pages and banners.
// Times are epoch ms relative to `now`; money integer cents (SGD); quantities whole tons (tCO2e).
// Project names, companies and registry ids are fictional examples, not real listings.

const MIN = 60_000;
const H = 60 * MIN;
const D = 24 * H;

/** Joins paragraphs with a blank line between them (the plain-text format of bodies). */
const paras = (...xs: string[]): string => xs.join('\n\n');

type ProjectSeed = Omit<Insertable<ProjectsTable>, 'created_at' | 'updated_at' | 'image'> & { slug: string };

function projects(now: number): ProjectSeed[] {
  return [
    {
      slug: 'kalimantan-peatland',
      name: 'Kalimantan Peat Swamp Forest Conservation',
      name_cn: '加里曼丹泥炭沼泽森林保护项目',
      location: 'Central Kalimantan, Indonesia',
      type: 'forestry',
      standard: 'VCS',
      status: 'in_progress',
      price: 1650,
      presale_price: null,
      min_tons: 1,
      max_tons: 500,
      total_tons: 120_000,
      remaining_tons: 84_350,
      selling_time: now - 40 * D,
      end_time: now + 120 * D,
      cycle_value: 30,
      cycle_unit: 'minutes',
      yield_bp: 600,
      required_grade: 0,
      monthly_limit: 1_000,
      total_limit: 5_000,
      company: 'PT Hutan Gambut Lestari',
      registry_id: 'VCS-2871',
      methodology: 'VM0007 REDD+',
      vintage: 2022,
      size_ha: 48_200,
      intro:
        'Protects a tropical peat swamp forest that was licensed for conversion to plantations. Keeping the peat wet and the forest standing avoids emissions from drainage, fire and logging. Community patrols and fire brigades are funded from credit sales.',
      intro_cn:
        '该项目保护一片原本被许可改造为种植园的热带泥炭沼泽森林。保持泥炭湿润、森林完整，可避免排水、火灾和采伐带来的排放。碳信用销售收入用于资助社区巡护队和防火队。',
    },
    {
      slug: 'mekong-mangrove',
      name: 'Mekong Delta Mangrove Restoration',
      name_cn: '湄公河三角洲红树林修复项目',
      location: 'Ca Mau, Vietnam',
      type: 'mangrove',
      standard: 'VCS',
      status: 'in_progress',
      price: 3800,
      presale_price: null,
      min_tons: 1,
      max_tons: 200,
      total_tons: 25_000,
      remaining_tons: 17_420,
      selling_time: now - 25 * D,
      end_time: now + 90 * D,
      cycle_value: 2,
      cycle_unit: 'hours',
      yield_bp: 900,
      required_grade: 0,
      monthly_limit: 400,
      total_limit: 2_000,
      company: 'Mekong Blue Carbon JSC',
      registry_id: 'VCS-3412',
      methodology: 'VM0033 Tidal Wetland',
      vintage: 2023,
      size_ha: 3_400,
      intro:
        'Replants mangroves on abandoned shrimp ponds along the Ca Mau coast. Restored mangroves store carbon in their biomass and soils and protect the shoreline from erosion. Local households are paid to plant and maintain the seedlings.',
      intro_cn:
        '该项目在金瓯沿海废弃的养虾塘上重新种植红树林。恢复后的红树林将碳储存在植被和土壤中，并保护海岸免受侵蚀。当地家庭通过种植和养护幼苗获得报酬。',
    },
    {
      slug: 'cardamom-redd',
      name: 'Cardamom Mountains Forest Protection',
      name_cn: '豆蔻山脉森林保护项目',
      location: 'Koh Kong, Cambodia',
      type: 'forestry',
      standard: 'VCS',
      status: 'in_progress',
      price: 1450,
      presale_price: null,
      min_tons: 2,
      max_tons: 1_000,
      total_tons: 200_000,
      remaining_tons: 163_900,
      selling_time: now - 55 * D,
      end_time: now + 150 * D,
      cycle_value: 7,
      cycle_unit: 'days',
      yield_bp: 500,
      required_grade: 0,
      monthly_limit: 2_000,
      total_limit: 10_000,
      company: 'Cardamom Conservation Partners Co., Ltd.',
      registry_id: 'VCS-1748',
      methodology: 'VM0048 REDD',
      vintage: 2023,
      size_ha: 120_000,
      intro:
        'Reduces deforestation in the lowland evergreen forests of the southern Cardamom Mountains. Rangers, land-use planning with villages and support for forest-friendly livelihoods lower the pressure from clearing. The area is habitat for many threatened species.',
      intro_cn:
        '该项目减少豆蔻山脉南部低地常绿森林的毁林。通过护林员巡护、与村庄共同制定土地利用规划以及支持对森林友好的生计，降低开垦压力。该区域是众多受威胁物种的栖息地。',
    },
    {
      slug: 'kinabatangan-reforestation',
      name: 'Kinabatangan Corridor Reforestation',
      name_cn: '京那巴登岸生态走廊再造林项目',
      location: 'Sabah, Malaysia',
      type: 'forestry',
      standard: 'VCS',
      status: 'in_progress',
      price: 4200,
      presale_price: null,
      min_tons: 1,
      max_tons: 100,
      total_tons: 15_000,
      remaining_tons: 9_800,
      selling_time: now - 20 * D,
      end_time: now + 75 * D,
      cycle_value: 14,
      cycle_unit: 'days',
      yield_bp: 1000,
      required_grade: 1,
      monthly_limit: 200,
      total_limit: 800,
      company: 'Kinabatangan Restoration Sdn. Bhd.',
      registry_id: 'VCS-4106',
      methodology: 'VM0047 ARR',
      vintage: 2024,
      size_ha: 2_600,
      intro:
        'Replants native trees on degraded riverbank land to reconnect fragmented forest along the Kinabatangan River. Removals are measured from tree growth in permanent sample plots. The corridor helps orangutans and elephants move between forest blocks.',
      intro_cn:
        '该项目在退化的河岸土地上种植本土树种，重新连接京那巴登岸河沿岸破碎的森林。碳移除量通过固定样地中的树木生长测量。这条生态走廊帮助红毛猩猩和大象在森林之间迁移。',
    },
    {
      slug: 'luzon-solar',
      name: 'Central Luzon Solar Power',
      name_cn: '吕宋岛中部太阳能发电项目',
      location: 'Tarlac, Philippines',
      type: 'renewable',
      standard: 'Gold Standard',
      status: 'in_progress',
      price: 900,
      presale_price: null,
      min_tons: 5,
      max_tons: 2_000,
      total_tons: 80_000,
      remaining_tons: 51_200,
      selling_time: now - 35 * D,
      end_time: now + 60 * D,
      cycle_value: 24,
      cycle_unit: 'hours',
      yield_bp: 300,
      required_grade: 0,
      monthly_limit: 4_000,
      total_limit: 20_000,
      company: 'Luzon Sunpower Corp.',
      registry_id: 'GS-11482',
      methodology: 'ACM0002 Grid-connected renewable electricity',
      vintage: 2023,
      size_ha: 62,
      intro:
        'A grid-connected solar farm that supplies the Luzon grid, which still relies heavily on coal. Credits are issued for the metered electricity that displaces fossil generation. The project also funds a scholarship programme in nearby villages.',
      intro_cn:
        '这是一座并网光伏电站，向仍高度依赖燃煤发电的吕宋电网供电。碳信用按替代化石能源发电的计量电量签发。项目还为周边村庄资助奖学金计划。',
    },
    {
      slug: 'odisha-cookstoves',
      name: 'Odisha Efficient Cookstoves',
      name_cn: '奥里萨邦高效炉灶项目',
      location: 'Odisha, India',
      type: 'cookstove',
      standard: 'Gold Standard',
      status: 'in_progress',
      price: 1200,
      presale_price: null,
      min_tons: 1,
      max_tons: 500,
      total_tons: 60_000,
      remaining_tons: 38_750,
      selling_time: now - 30 * D,
      end_time: now + 100 * D,
      cycle_value: 3,
      cycle_unit: 'days',
      yield_bp: 700,
      required_grade: 0,
      monthly_limit: 1_000,
      total_limit: 4_000,
      company: 'Kalinga Clean Cooking Pvt. Ltd.',
      registry_id: 'GS-10391',
      methodology: 'GS TPDDTEC',
      vintage: 2023,
      size_ha: 0,
      intro:
        'Distributes efficient biomass cookstoves to rural households that cook on open fires. The stoves need less firewood, which reduces emissions and pressure on nearby forests. Less smoke in the kitchen improves health, especially for women and children.',
      intro_cn:
        '该项目向使用明火做饭的农村家庭发放高效生物质炉灶。新炉灶耗柴更少，从而减少排放并减轻对周边森林的压力。厨房烟雾减少也改善了健康，尤其是妇女和儿童的健康。',
    },
    {
      slug: 'laos-cookstoves',
      name: 'Savannakhet Clean Cookstoves',
      name_cn: '老挝沙湾拿吉清洁炉灶项目',
      location: 'Savannakhet, Laos',
      type: 'cookstove',
      standard: 'Gold Standard',
      status: 'presale',
      price: 1300,
      presale_price: 1100,
      min_tons: 1,
      max_tons: 300,
      total_tons: 40_000,
      remaining_tons: 40_000,
      selling_time: now + 5 * D,
      end_time: now + 180 * D,
      cycle_value: 5,
      cycle_unit: 'days',
      yield_bp: 700,
      required_grade: 0,
      monthly_limit: 600,
      total_limit: 3_000,
      company: 'Lao Green Hearth Co., Ltd.',
      registry_id: 'GS-12207',
      methodology: 'AMS-II.G',
      vintage: 2024,
      size_ha: 0,
      intro:
        'Brings locally made improved charcoal and wood stoves to households in Savannakhet province. Fuel savings are monitored with household surveys and kitchen performance tests. Pre-sale bookings help finance stove production before credits are issued.',
      intro_cn:
        '该项目为沙湾拿吉省的家庭提供本地制造的改良木炭和柴火炉灶。通过入户调查和厨房性能测试监测燃料节约量。预售预订资金用于在碳信用签发前支持炉灶生产。',
    },
    {
      slug: 'korat-landfill-gas',
      name: 'Nakhon Ratchasima Landfill Gas Recovery',
      name_cn: '呵叻垃圾填埋气回收项目',
      location: 'Nakhon Ratchasima, Thailand',
      type: 'methane',
      standard: 'VCS',
      status: 'in_progress',
      price: 1000,
      presale_price: null,
      min_tons: 2,
      max_tons: 1_000,
      total_tons: 50_000,
      remaining_tons: 32_100,
      selling_time: now - 15 * D,
      end_time: now + 45 * D,
      cycle_value: 6,
      cycle_unit: 'hours',
      yield_bp: 400,
      required_grade: 0,
      monthly_limit: 2_000,
      total_limit: 8_000,
      company: 'Siam Landfill Energy Co., Ltd.',
      registry_id: 'VCS-2254',
      methodology: 'ACM0001 Landfill gas',
      vintage: 2022,
      size_ha: 25,
      intro:
        'Captures methane from a municipal landfill through a network of gas wells. The gas runs engines that feed electricity to the grid, and any surplus is flared. Methane is a far stronger greenhouse gas than carbon dioxide over the short term.',
      intro_cn:
        '该项目通过集气井网络收集城市垃圾填埋场产生的甲烷。收集的气体用于驱动发电机组向电网供电，多余部分进行火炬燃烧。短期内，甲烷的温室效应远强于二氧化碳。',
    },
    {
      slug: 'palawan-seagrass',
      name: 'Palawan Seagrass Blue Carbon',
      name_cn: '巴拉望海草床蓝碳项目',
      location: 'Palawan, Philippines',
      type: 'blue_carbon',
      standard: 'VCS',
      status: 'presale',
      price: 4500,
      presale_price: 3900,
      min_tons: 1,
      max_tons: 50,
      total_tons: 8_000,
      remaining_tons: 8_000,
      selling_time: now + 10 * D,
      end_time: now + 200 * D,
      cycle_value: 30,
      cycle_unit: 'days',
      yield_bp: 1200,
      required_grade: 2,
      monthly_limit: 100,
      total_limit: 300,
      company: 'Palawan Seagrass Trust Inc.',
      registry_id: 'VCS-4590',
      methodology: 'VM0033 Tidal Wetland',
      vintage: 2024,
      size_ha: 1_250,
      intro:
        'Restores and protects seagrass meadows damaged by boat anchors and sediment runoff. Seagrass traps carbon in marine sediments and supports fisheries that coastal communities depend on. Moorings and community wardens reduce further damage.',
      intro_cn:
        '该项目修复并保护因船锚和泥沙径流而受损的海草床。海草将碳封存在海洋沉积物中，并支撑沿海社区赖以生存的渔业。系泊浮标和社区管护员可减少进一步破坏。',
    },
    {
      slug: 'tamil-nadu-soil',
      name: 'Tamil Nadu Regenerative Agriculture',
      name_cn: '泰米尔纳德邦再生农业土壤碳项目',
      location: 'Tamil Nadu, India',
      type: 'soil',
      standard: 'VCS',
      status: 'presale',
      price: 2400,
      presale_price: 2100,
      min_tons: 1,
      max_tons: 200,
      total_tons: 30_000,
      remaining_tons: 22_500,
      selling_time: now - 1 * D,
      end_time: now + 90 * D,
      cycle_value: 60,
      cycle_unit: 'minutes',
      yield_bp: 800,
      required_grade: 0,
      monthly_limit: 400,
      total_limit: 1_500,
      company: 'Cauvery Soil Carbon Pvt. Ltd.',
      registry_id: 'VCS-4733',
      methodology: 'VM0042 Improved Agricultural Land Management',
      vintage: 2024,
      size_ha: 18_000,
      intro:
        'Supports smallholder farmers in the Cauvery delta to adopt cover crops, reduced tillage and better residue management. These practices build soil organic carbon and reduce the need for burning crop residues. Soil samples and models are used to estimate carbon gains.',
      intro_cn:
        '该项目支持高韦里河三角洲的小农采用覆盖作物、减少耕作和改进秸秆管理。这些做法可以增加土壤有机碳，并减少焚烧秸秆的需要。碳增量通过土壤采样和模型进行估算。',
    },
    {
      slug: 'riau-pome-methane',
      name: 'Riau Palm Oil Mill Methane Capture',
      name_cn: '廖内棕榈油厂废水甲烷回收项目',
      location: 'Riau, Indonesia',
      type: 'methane',
      standard: 'VCS',
      status: 'closed',
      price: 1100,
      presale_price: null,
      min_tons: 1,
      max_tons: 500,
      total_tons: 20_000,
      remaining_tons: 0,
      selling_time: now - 120 * D,
      end_time: now - 20 * D,
      cycle_value: 2,
      cycle_unit: 'days',
      yield_bp: 400,
      required_grade: 0,
      monthly_limit: 1_000,
      total_limit: 3_000,
      company: 'PT Riau Biogas Energi',
      registry_id: 'VCS-1963',
      methodology: 'AMS-III.H Methane recovery in wastewater treatment',
      vintage: 2021,
      size_ha: 12,
      intro:
        'Covers the open effluent ponds of a palm oil mill and captures the methane they release. The biogas replaces diesel for the mill’s own power needs. This round sold out before its deadline.',
      intro_cn:
        '该项目为棕榈油厂的露天废水池加盖，收集其释放的甲烷。沼气替代柴油，为油厂自身供电。本轮额度已在截止前全部售罄。',
    },
    {
      slug: 'gujarat-wind',
      name: 'Kutch Wind Power',
      name_cn: '古吉拉特邦卡奇风电项目',
      location: 'Gujarat, India',
      type: 'renewable',
      standard: 'VCS',
      status: 'closed',
      price: 800,
      presale_price: null,
      min_tons: 5,
      max_tons: 2_000,
      total_tons: 100_000,
      remaining_tons: 12_400,
      selling_time: now - 150 * D,
      end_time: now - 5 * D,
      cycle_value: 1,
      cycle_unit: 'days',
      yield_bp: 300,
      required_grade: 0,
      monthly_limit: 5_000,
      total_limit: 20_000,
      company: 'Kutch Wind Power Pvt. Ltd.',
      registry_id: 'VCS-1120',
      methodology: 'ACM0002 Grid-connected renewable electricity',
      vintage: 2021,
      size_ha: 180,
      intro:
        'A wind farm in the Kutch region supplying renewable electricity to the western Indian grid. Credits represent emissions avoided by displacing grid power. This offering has reached its deadline and is closed.',
      intro_cn:
        '该风电场位于卡奇地区，向印度西部电网供应可再生电力。碳信用代表替代电网电力所避免的排放。本期认购已到截止时间，现已结束。',
    },
    {
      slug: 'mindanao-hydro',
      name: 'Bukidnon Run-of-River Hydro',
      name_cn: '棉兰老岛布基农径流式水电项目',
      location: 'Bukidnon, Philippines',
      type: 'renewable',
      standard: 'Gold Standard',
      status: 'pending_review',
      price: 1000,
      presale_price: null,
      min_tons: 2,
      max_tons: 1_000,
      total_tons: 45_000,
      remaining_tons: 45_000,
      selling_time: now + 30 * D,
      end_time: now + 210 * D,
      cycle_value: 3,
      cycle_unit: 'days',
      yield_bp: 400,
      required_grade: 0,
      monthly_limit: 2_000,
      total_limit: 6_000,
      company: 'Bukidnon Hydro Power Corp.',
      registry_id: 'GS-12880',
      methodology: 'ACM0002 Grid-connected renewable electricity',
      vintage: 2024,
      size_ha: 40,
      intro:
        'A small run-of-river hydropower plant without a large reservoir, feeding the Mindanao grid. It displaces electricity from diesel and coal plants. The listing is under review.',
      intro_cn:
        '这是一座无大型水库的小型径流式水电站，向棉兰老电网供电，替代柴油和燃煤电厂的发电。该项目正在审核中。',
    },
    {
      slug: 'sarawak-mangrove',
      name: 'Rajang Delta Mangrove Conservation',
      name_cn: '拉让江三角洲红树林保护项目',
      location: 'Sarawak, Malaysia',
      type: 'mangrove',
      standard: 'VCS',
      status: 'pending_review',
      price: 3500,
      presale_price: null,
      min_tons: 1,
      max_tons: 200,
      total_tons: 18_000,
      remaining_tons: 18_000,
      selling_time: now + 45 * D,
      end_time: now + 240 * D,
      cycle_value: 10,
      cycle_unit: 'days',
      yield_bp: 900,
      required_grade: 0,
      monthly_limit: 400,
      total_limit: 1_500,
      company: 'Rajang Delta Mangrove Sdn. Bhd.',
      registry_id: 'VCS-4821',
      methodology: 'VM0007 REDD+',
      vintage: 2024,
      size_ha: 2_100,
      intro:
        'Protects mangrove forest in the Rajang delta from conversion to aquaculture and logging. Mangrove soils hold large carbon stocks that are released when the forest is cleared. The listing is under review.',
      intro_cn:
        '该项目保护拉让江三角洲的红树林，使其免于被改造为水产养殖场或遭到采伐。红树林土壤储存大量碳，一旦森林被清除便会释放。该项目正在审核中。',
    },
    {
      slug: 'tay-nguyen-biogas',
      name: 'Central Highlands Household Biogas',
      name_cn: '越南西原户用沼气项目',
      location: 'Dak Lak, Vietnam',
      type: 'methane',
      standard: 'Gold Standard',
      status: 'in_progress',
      price: 1400,
      presale_price: null,
      min_tons: 1,
      max_tons: 300,
      total_tons: 35_000,
      remaining_tons: 21_300,
      selling_time: now - 10 * D,
      end_time: now + 80 * D,
      cycle_value: 12,
      cycle_unit: 'hours',
      yield_bp: 600,
      required_grade: 0,
      monthly_limit: 600,
      total_limit: 2_500,
      company: 'Tay Nguyen Biogas Cooperative',
      registry_id: 'GS-11905',
      methodology: 'AMS-III.R Methane recovery in agricultural activities',
      vintage: 2023,
      size_ha: 0,
      intro:
        'Installs small biogas digesters on family pig and cattle farms. The digesters capture methane from manure and provide clean cooking gas, replacing firewood and LPG. The leftover slurry is used as organic fertiliser on coffee farms.',
      intro_cn:
        '该项目在家庭养猪场和养牛场安装小型沼气池。沼气池收集粪便产生的甲烷，提供清洁的炊事燃气，替代柴火和液化石油气。剩余的沼液沼渣用作咖啡园的有机肥料。',
    },
    {
      slug: 'fiji-mangrove',
      name: 'Ba Delta Mangrove Restoration',
      name_cn: '斐济巴河三角洲红树林修复项目',
      location: 'Viti Levu, Fiji',
      type: 'mangrove',
      standard: 'VCS',
      status: 'presale',
      price: 3600,
      presale_price: 3200,
      min_tons: 1,
      max_tons: 100,
      total_tons: 12_000,
      remaining_tons: 10_850,
      selling_time: now - 3 * D,
      end_time: now + 120 * D,
      cycle_value: 20,
      cycle_unit: 'days',
      yield_bp: 1000,
      required_grade: 0,
      monthly_limit: 200,
      total_limit: 800,
      company: 'Ba River Blue Carbon Ltd.',
      registry_id: 'VCS-4677',
      methodology: 'VM0033 Tidal Wetland',
      vintage: 2024,
      size_ha: 950,
      intro:
        'Replants mangroves on cleared and eroded shorelines of the Ba River delta with village nurseries. Restored forest protects coastal homes and farmland from storm surge. Credits will be issued as the planted areas grow and are verified.',
      intro_cn:
        '该项目与村庄苗圃合作，在巴河三角洲被砍伐和侵蚀的海岸线上重新种植红树林。恢复后的森林保护沿海房屋和农田免受风暴潮侵袭。随着种植区生长并通过核查，碳信用将陆续签发。',
    },
  ];
}

function news(now: number): Insertable<NewsTable>[] {
  const at = (daysAgo: number, hour = 9) => now - daysAgo * D - hour * H;
  return [
    {
      title: 'Singapore’s carbon tax: what the rising rate means',
      title_cn: '新加坡碳税：税率上调意味着什么',
      summary:
        'Singapore’s carbon tax rose to S$25 per tonne in 2024 and is set to reach S$45 in 2026 and 2027, with S$50–80 targeted by 2030.',
      summary_cn: '新加坡碳税于2024年上调至每吨25新元，并计划在2026和2027年提高至每吨45新元，目标是到2030年达到每吨50至80新元。',
      body: paras(
        'Singapore introduced a carbon tax in 2019 on facilities that emit 25,000 tonnes of greenhouse gases or more a year. The rate was S$5 per tonne from 2019 to 2023.',
        'Under the schedule announced in Budget 2022, the rate became S$25 per tonne for 2024 and 2025, and is set at S$45 per tonne for 2026 and 2027, with a target of S$50 to S$80 per tonne by 2030.',
        'The tax is designed to give large emitters a price signal to cut emissions. It applies to industrial facilities directly; households and small businesses feel it mainly through the prices of electricity and goods.',
        'For official figures and the latest rules, refer to the National Climate Change Secretariat (NCCS) and the National Environment Agency (NEA). This article is a general overview and not tax advice.',
      ),
      body_cn: paras(
        '新加坡于2019年开始对每年温室气体排放量达到或超过2.5万吨的设施征收碳税。2019年至2023年的税率为每吨5新元。',
        '根据2022年财政预算案公布的时间表，2024年和2025年的税率为每吨25新元，2026年和2027年为每吨45新元，目标是到2030年达到每吨50至80新元。',
        '碳税旨在向大型排放者发出价格信号，促使其减排。碳税直接针对工业设施征收，家庭和小型企业主要通过电价和商品价格感受到其影响。',
        '官方数据和最新规定请以国家气候变化秘书处（NCCS）和国家环境局（NEA）发布的信息为准。本文仅为一般性介绍，不构成税务建议。',
      ),
      image: '/img/news/carbon-tax.svg',
      published_at: at(56),
      created_at: now,
    },
    {
      title: 'Which international carbon credits count against Singapore’s carbon tax?',
      title_cn: '哪些国际碳信用可用于抵扣新加坡碳税？',
      summary:
        'Since 2024, taxable facilities may surrender eligible international carbon credits for up to 5% of their taxable emissions. Eligibility rules are strict.',
      summary_cn: '自2024年起，应税设施可使用符合条件的国际碳信用抵扣最多5%的应税排放量，相关资格要求十分严格。',
      body: paras(
        'From 1 January 2024, companies liable for Singapore’s carbon tax may use eligible international carbon credits (ICCs) to offset up to 5% of their taxable emissions.',
        'To be eligible, credits must meet criteria set out in Singapore’s regulations, including coming from approved programmes and methodologies, and from host countries that have an implementation agreement with Singapore under Article 6 of the Paris Agreement. Credits must also carry a corresponding adjustment so the same reduction is not counted twice.',
        'Most credits traded on voluntary markets, including many of those listed on Canopy, are not automatically eligible for this purpose. Canopy shows each project’s standard, methodology and vintage so that you can check. We will clearly mark any project whose credits are confirmed as eligible.',
        'If you need credits for carbon tax compliance, please confirm eligibility with NEA’s published list and your own advisers before buying.',
      ),
      body_cn: paras(
        '自2024年1月1日起，需缴纳新加坡碳税的企业可使用符合条件的国际碳信用（ICC）抵扣最多5%的应税排放量。',
        '要符合条件，碳信用必须满足新加坡法规规定的标准，包括来自获批准的计划和方法学，且东道国须与新加坡根据《巴黎协定》第六条签订实施协议。碳信用还必须进行相应调整，避免同一减排量被重复计算。',
        '自愿市场上交易的大多数碳信用，包括Canopy上架的许多项目，并不自动具备此用途的资格。Canopy展示每个项目的标准、方法学和年份，便于您自行核查。如有项目的碳信用被确认符合资格，我们会明确标注。',
        '如您需要碳信用用于碳税合规，请在购买前通过国家环境局公布的名单及您自己的顾问确认其资格。',
      ),
      image: '/img/news/icc-eligibility.svg',
      published_at: at(49),
      created_at: now,
    },
    {
      title: 'Article 6 of the Paris Agreement, explained',
      title_cn: '一文读懂《巴黎协定》第六条',
      summary:
        'Article 6 lets countries cooperate on emission reductions and transfer them between each other, with rules to avoid double counting.',
      summary_cn: '第六条允许各国在减排方面开展合作并相互转让减排成果，同时设有避免重复计算的规则。',
      body: paras(
        'Article 6 of the Paris Agreement allows countries to cooperate in meeting their climate targets. Article 6.2 covers bilateral deals in which one country transfers emission reductions, called internationally transferred mitigation outcomes (ITMOs), to another.',
        'When a reduction is transferred, the host country makes a corresponding adjustment: it no longer counts that reduction towards its own target. This is how double counting is avoided.',
        'Article 6.4 creates a crediting mechanism supervised by the United Nations, sometimes called the Paris Agreement Crediting Mechanism. Its core rules were agreed at COP29 in Baku in 2024, and work on methodologies continues.',
        'Singapore has been an active participant, signing implementation agreements with several host countries so that high-quality credits can flow between them.',
      ),
      body_cn: paras(
        '《巴黎协定》第六条允许各国合作实现气候目标。第6.2条涵盖双边合作：一国可将减排成果，即“国际转让的减缓成果”（ITMO），转让给另一国。',
        '减排成果转让后，东道国需进行相应调整，不再将该减排量计入本国目标，从而避免重复计算。',
        '第6.4条建立了由联合国监督的碳信用机制，有时称为“巴黎协定碳信用机制”。其核心规则已于2024年在巴库举行的COP29上达成一致，方法学的相关工作仍在推进。',
        '新加坡积极参与其中，已与多个东道国签署实施协议，使高质量碳信用能够在双方之间流通。',
      ),
      image: '/img/news/article-6.svg',
      published_at: at(42),
      created_at: now,
    },
    {
      title: 'Why mangroves matter for the climate',
      title_cn: '红树林为何对气候如此重要',
      summary:
        'Mangroves store large amounts of carbon in their soils and protect coasts. Restoring them well takes careful site selection and local partners.',
      summary_cn: '红树林在土壤中储存大量碳，并保护海岸线。成功的修复需要审慎选址并与当地伙伴合作。',
      body: paras(
        'Mangroves grow in the intertidal zone of tropical coasts. Much of the carbon they capture is stored in waterlogged soils, where it can remain for a very long time. This is why mangroves, seagrass and salt marshes are known as blue carbon ecosystems.',
        'South-East Asia holds a large share of the world’s mangroves, and has also lost large areas to aquaculture, agriculture and coastal development.',
        'Restoration works best when the hydrology is right: seedlings planted where the tide does not reach them properly often fail. Good projects restore water flows, choose suitable native species and work with the communities who use the coast.',
        'Canopy lists mangrove projects in Vietnam and Fiji, and more are under review. Each project page shows its methodology, size and vintage.',
      ),
      body_cn: paras(
        '红树林生长在热带海岸的潮间带。它们吸收的碳大部分储存在长期淹水的土壤中，可以保存很长时间。因此，红树林、海草床和盐沼被称为“蓝碳”生态系统。',
        '东南亚拥有全球相当大比例的红树林，但也有大片红树林因水产养殖、农业和沿海开发而消失。',
        '只有水文条件合适，修复才能成功：如果幼苗种在潮水无法正常到达的位置，往往难以存活。优秀的项目会恢复水流、选择合适的本土树种，并与使用海岸的社区合作。',
        'Canopy已上架越南和斐济的红树林项目，更多项目正在审核中。每个项目页面都会展示其方法学、面积和年份。',
      ),
      image: '/img/news/mangrove.svg',
      published_at: at(35),
      created_at: now,
    },
    {
      title: 'Understanding standards, registries and vintages',
      title_cn: '了解碳信用标准、登记处与年份',
      summary:
        'Every project on Canopy names its standard, registry ID, methodology and vintage. Here is what each of them tells you.',
      summary_cn: 'Canopy上的每个项目都会注明其标准、登记编号、方法学和年份。本文介绍这些信息的含义。',
      body: paras(
        'A standard sets the rules a project must follow to issue credits. The two standards on Canopy are Verra’s Verified Carbon Standard (VCS) and the Gold Standard.',
        'Credits are issued and retired in a public registry. The registry ID shown on each project page lets you look the project up on the standard’s registry.',
        'The methodology describes how reductions or removals are calculated, for example VM0007 for REDD+ forest protection or AMS-II.G for efficient cookstoves. The vintage is the year in which the reductions took place.',
        'Checking these details is a good habit before any purchase.',
      ),
      body_cn: paras(
        '标准规定了项目签发碳信用必须遵循的规则。Canopy上的两种标准是Verra的核证碳标准（VCS）和黄金标准（Gold Standard）。',
        '碳信用在公开的登记处签发和注销。每个项目页面显示的登记编号可用于在相应标准的登记系统中查询该项目。',
        '方法学说明减排量或移除量的计算方式，例如用于REDD+森林保护的VM0007，或用于高效炉灶的AMS-II.G。年份是指减排实际发生的年份。',
        '购买前核查这些信息是一个好习惯。',
      ),
      image: '/img/news/registries.svg',
      published_at: at(28),
      created_at: now,
    },
    {
      title: 'The Core Carbon Principles and credit quality',
      title_cn: '核心碳原则与碳信用质量',
      summary:
        'The Integrity Council for the Voluntary Carbon Market published its Core Carbon Principles in 2023 as a benchmark for high-integrity credits.',
      summary_cn: '自愿碳市场诚信委员会（ICVCM）于2023年发布了核心碳原则，作为高诚信碳信用的基准。',
      body: paras(
        'The Integrity Council for the Voluntary Carbon Market (ICVCM) is an independent governance body. In 2023 it published ten Core Carbon Principles (CCPs) covering governance, emissions impact and sustainable development.',
        'The principles address questions such as additionality (would the reduction have happened anyway?), permanence, robust quantification and avoiding double counting.',
        'Programmes and methodology categories that are assessed as meeting the principles can carry a CCP label. Assessments are ongoing, so the status of a given methodology can change.',
        'Canopy will show a label on a project only when its credits are confirmed as CCP-approved.',
      ),
      body_cn: paras(
        '自愿碳市场诚信委员会（ICVCM）是一个独立的治理机构。2023年，该委员会发布了十项核心碳原则（CCP），涵盖治理、排放影响和可持续发展三个方面。',
        '这些原则涉及额外性（即使没有项目，减排是否也会发生？）、持久性、可靠的量化以及避免重复计算等问题。',
        '经评估符合这些原则的计划和方法学类别可以带有CCP标签。评估仍在进行中，因此某一方法学的状态可能发生变化。',
        '只有当项目的碳信用被确认获得CCP认可时，Canopy才会在该项目上显示相应标签。',
      ),
      image: '/img/news/ccp.svg',
      published_at: at(21),
      created_at: now,
    },
    {
      title: 'How pre-sales work on Canopy',
      title_cn: 'Canopy预售流程说明',
      summary:
        'Book tons at the pre-sale price with a 10% booking fee, then pay the balance once your final allocation is confirmed.',
      summary_cn: '以预售价预订吨数并支付10%的预订金，最终配售确认后再支付尾款。',
      body: paras(
        'Some projects open for pre-sale before their credits go on general sale. During the pre-sale you can book a number of tons at the pre-sale price. A booking fee, by default 10% of the booked amount, moves from your available balance to your pre-sale balance.',
        'When the pre-sale closes, we confirm the final unit price and your final tons. If a pre-sale is oversubscribed, tons are allocated pro rata, so you may receive fewer tons than you booked.',
        'You then have a limited time, by default 72 hours, to pay the final amount: final tons times final price, minus the booking fee you already paid. If the deadline passes without payment, the booking fee is forfeited.',
        'After the final payment your order runs its cycle like a normal purchase, and the tons are added to your carbon credit balance when it completes.',
      ),
      body_cn: paras(
        '部分项目在正式开售前会先开放预售。预售期间，您可以按预售价预订一定吨数，预订金（默认为预订金额的10%）将从可用余额转入预售余额。',
        '预售结束后，我们会确认最终单价和您的最终吨数。若预售超额认购，将按比例配售，您获得的吨数可能少于预订吨数。',
        '之后您需在限定时间内（默认72小时）支付尾款：最终吨数乘以最终单价，减去已支付的预订金。逾期未付，预订金将不予退还。',
        '支付尾款后，订单将像普通购买一样运行一个周期，周期结束后吨数计入您的碳信用余额。',
      ),
      image: '/img/news/presale-guide.svg',
      published_at: at(14),
      created_at: now,
    },
    {
      title: 'New pre-sale: clean cookstoves in Savannakhet, Laos',
      title_cn: '新预售：老挝沙湾拿吉清洁炉灶项目',
      summary:
        'A Gold Standard cookstove project in southern Laos opens for pre-sale bookings. Pre-sale price S$11.00 per ton.',
      summary_cn: '老挝南部一个黄金标准炉灶项目开放预售预订，预售价每吨11.00新元。',
      body: paras(
        'The Savannakhet Clean Cookstoves project distributes improved stoves made by local workshops to rural households. Efficient stoves use less wood and charcoal, which cuts emissions and indoor smoke.',
        'Bookings open at a pre-sale price of S$11.00 per ton, compared with a general sale price of S$13.00. Booking is subject to the per-order and per-member limits shown on the project page.',
        'Read “How pre-sales work on Canopy” for details of the booking fee and final payment.',
      ),
      body_cn: paras(
        '沙湾拿吉清洁炉灶项目向农村家庭发放由当地作坊制造的改良炉灶。高效炉灶消耗更少的木柴和木炭，从而减少排放和室内烟雾。',
        '预订以每吨11.00新元的预售价开放，正式销售价为每吨13.00新元。预订须遵守项目页面所示的单笔及每位会员限额。',
        '预订金及尾款的详细说明，请参阅《Canopy预售流程说明》。',
      ),
      image: '/img/news/laos-cookstoves.svg',
      published_at: at(7),
      created_at: now,
    },
    {
      title: 'Platform update: withdrawals and settlement times',
      title_cn: '平台更新：提现与结算时间',
      summary:
        'Withdrawals can be requested once a day, Monday to Friday. Proceeds from selling credits back settle after 2 working days.',
      summary_cn: '提现可在周一至周五申请，每天一次。回售碳信用所得款项在2个工作日后结算。',
      body: paras(
        'You can request one withdrawal per day, Monday to Friday (Singapore time). Withdrawals go to the bank account or PayNow number you have bound, and the account holder name must match your registered name.',
        'When you sell credits back to the platform, the proceeds first appear in your unavailable balance and become available after 2 working days. Weekends and Singapore public holidays are not counted.',
        'The withdrawal handling fee and the minimum and maximum amounts are shown on the withdrawal page before you confirm.',
      ),
      body_cn: paras(
        '您可在周一至周五（新加坡时间）每天申请一次提现。提现将转入您绑定的银行账户或PayNow号码，账户持有人姓名须与注册姓名一致。',
        '向平台回售碳信用后，所得款项会先计入不可用余额，并在2个工作日后转为可用余额。周末和新加坡公共假期不计入工作日。',
        '提现手续费以及最低和最高金额会在您确认前显示在提现页面。',
      ),
      image: '/img/news/settlement.svg',
      published_at: at(4),
      created_at: now,
    },
    {
      title: 'Platform update: Canopy now works offline',
      title_cn: '平台更新：Canopy支持离线使用',
      summary:
        'Install Canopy on your phone to browse projects, news and your records even without a connection. Purchases still need to be online.',
      summary_cn: '将Canopy安装到手机后，即使没有网络也能浏览项目、资讯和您的记录。购买等操作仍需联网。',
      body: paras(
        'Canopy is a progressive web app. You can add it to your home screen from your browser, and it will open like an app.',
        'Pages and data you have viewed are kept on your device, so you can browse projects, news, your orders and your fund records when you are offline. Cached data shows when it was last updated.',
        'Anything that moves money or credits, such as buying, booking, selling or withdrawing, always needs a connection. When you are offline the button tells you so, and nothing is queued to be sent later.',
      ),
      body_cn: paras(
        'Canopy是一款渐进式网页应用（PWA）。您可以通过浏览器将其添加到主屏幕，像普通应用一样打开。',
        '您浏览过的页面和数据会保存在设备上，因此离线时也可以查看项目、资讯、订单和资金记录。缓存数据会显示最近的更新时间。',
        '涉及资金或碳信用变动的操作，如购买、预订、回售或提现，始终需要联网。离线时按钮会给出提示，且不会将任何操作排队稍后发送。',
      ),
      image: '/img/news/offline.svg',
      published_at: at(1),
      created_at: now,
    },
  ];
}

function faqs(): Insertable<FaqsTable>[] {
  const list: Omit<Insertable<FaqsTable>, 'sort'>[] = [
    {
      question: 'What is a carbon credit?',
      question_cn: '什么是碳信用？',
      answer:
        'A carbon credit represents one tonne of carbon dioxide equivalent (tCO2e) that a project has reduced or removed from the atmosphere, as measured under a standard such as VCS or the Gold Standard and verified by an independent auditor. Credits are tracked in public registries so that each one can be used (retired) only once.',
      answer_cn:
        '一个碳信用代表一个项目按照VCS或黄金标准等标准测量、并经独立审核机构核证的一吨二氧化碳当量（tCO2e）的减排量或移除量。碳信用在公开登记处进行追踪，确保每个碳信用只能使用（注销）一次。',
    },
    {
      question: 'How does buying by the ton work?',
      question_cn: '按吨购买是如何运作的？',
      answer:
        'Each project has a price per ton and limits: a minimum and maximum per order, and a monthly and total limit per member. Enter the number of whole tons, confirm with your withdrawal password, and the amount is paid from your available balance. The order is "in progress" for one cycle of the project (for example 2 hours or 7 days); when it completes, the tons are added to your carbon credit balance.',
      answer_cn:
        '每个项目都有每吨价格和限额：单笔订单的最低和最高吨数，以及每位会员的每月和累计限额。输入整数吨数，使用提现密码确认后，金额将从可用余额中扣除。订单在项目的一个周期内（例如2小时或7天）处于“进行中”状态，周期结束后吨数计入您的碳信用余额。',
    },
    {
      question: 'How do pre-sales and final payments work?',
      question_cn: '预售和尾款如何运作？',
      answer:
        'During a pre-sale you book tons at the pre-sale price and pay a booking fee (by default 10% of the booked amount), which is held in your pre-sale balance. When the pre-sale is allocated you see your final tons and final price, and you have a deadline (by default 72 hours) to pay the final amount, which is the total minus the booking fee. If you miss the deadline the booking fee is forfeited and your credit score may be lowered.',
      answer_cn:
        '预售期间，您按预售价预订吨数并支付预订金（默认为预订金额的10%），预订金存放在预售余额中。配售完成后，您会看到最终吨数和最终单价，并需在截止时间前（默认72小时）支付尾款，即总额减去预订金。逾期未付，预订金将不予退还，信用评分也可能被下调。',
    },
    {
      question: 'Can I sell credits back, and when do I receive the money?',
      question_cn: '可以回售碳信用吗？款项何时到账？',
      answer:
        'Eligible members can sell credits from their carbon credit balance back to the platform at the buy-back price shown on the project (the price plus the displayed earning yield). This is the platform’s standing offer, not a promise of profit, and it can change. Proceeds go to your unavailable balance and become available after 2 working days (Singapore time, excluding weekends and public holidays). Credits from pre-sale orders can be sold from ambassador level (P3).',
      answer_cn:
        '符合条件的会员可以按项目显示的回购价（单价加上显示的收益率）将碳信用余额中的碳信用回售给平台。这是平台的常设回购报价，并非盈利承诺，且可能调整。所得款项先计入不可用余额，2个工作日后（新加坡时间，不含周末和公共假期）转为可用余额。预售订单获得的碳信用须达到大使等级（P3）方可回售。',
    },
    {
      question: 'When can I withdraw?',
      question_cn: '什么时候可以提现？',
      answer:
        'You can request one withdrawal per day, Monday to Friday (Singapore time). You need a bound bank account or PayNow number in your own registered name and your withdrawal password. The amount plus the handling fee is frozen until the withdrawal is completed; if it is refused, the money returns to your available balance.',
      answer_cn:
        '您可在周一至周五（新加坡时间）每天申请一次提现。您需要绑定以本人注册姓名开立的银行账户或PayNow号码，并使用提现密码。提现金额及手续费将被冻结，直至提现完成；如提现被拒绝，款项将退回可用余额。',
    },
    {
      question: 'What is the withdrawal password?',
      question_cn: '什么是提现密码？',
      answer:
        'The withdrawal password confirms withdrawals and every order. It must have at least 10 characters with a digit, an uppercase letter, a lowercase letter and a special character, and it must differ from your login password. After 5 wrong attempts your account is locked and your balance frozen until support unlocks it.',
      answer_cn:
        '提现密码用于确认提现和每一笔订单。密码至少10位，须包含数字、大写字母、小写字母和特殊字符，且不能与登录密码相同。连续输错5次后，账户将被锁定、余额被冻结，需联系客服解锁。',
    },
    {
      question: 'Can I use Canopy offline?',
      question_cn: 'Canopy可以离线使用吗？',
      answer:
        'Yes, for reading. Once installed, Canopy keeps the projects, news and records you have viewed on your device, so you can browse them without a connection. Buying, booking, selling, top-ups and withdrawals always need a connection; nothing is queued while you are offline.',
      answer_cn:
        '可以离线浏览。安装后，Canopy会将您浏览过的项目、资讯和记录保存在设备上，无网络时也能查看。购买、预订、回售、充值和提现始终需要联网，离线期间不会排队任何操作。',
    },
    {
      question: 'What fees does Canopy charge?',
      question_cn: 'Canopy收取哪些费用？',
      answer:
        'There is no fee to register, top up or buy: you pay the price per ton shown. Withdrawals carry a handling fee, shown before you confirm. Pre-sale bookings require a booking fee that counts towards your final payment, and is forfeited only if you do not pay the final amount in time.',
      answer_cn:
        '注册、充值和购买均不收费，您只需支付显示的每吨价格。提现需支付手续费，会在确认前显示。预售预订需支付预订金，该金额可抵扣尾款，仅在您未按时支付尾款时不予退还。',
    },
    {
      question: 'What are membership levels?',
      question_cn: '会员等级是什么？',
      answer:
        'Your level, from P0 to P5, rises with the total value of your completed purchases. Some projects require a minimum level, and selling back requires an eligible level. Ambassador is level P3.',
      answer_cn:
        '会员等级从P0到P5，随您已完成购买的累计金额提升。部分项目要求最低等级，回售也需要达到相应等级。大使等级为P3。',
    },
    {
      question: 'Is the earning yield guaranteed?',
      question_cn: '收益率有保证吗？',
      answer:
        'No. The earning yield shown on a project describes the platform’s current buy-back price for that project’s credits. It is an offer that may change, not a promise of profit or a financial product. Only buy credits you are comfortable holding.',
      answer_cn:
        '没有保证。项目上显示的收益率描述的是平台对该项目碳信用的当前回购价格。它是一项可能调整的报价，并非盈利承诺，也不是金融产品。请只购买您愿意持有的碳信用。',
    },
  ];
  return list.map((f, i) => ({ ...f, sort: (i + 1) * 10 }));
}

function pages(now: number): Insertable<PagesTable>[] {
  return [
    {
      slug: 'about',
      title: 'About Canopy',
      title_cn: '关于Canopy',
      body: paras(
        'Canopy is a marketplace for carbon credits from projects in South-East Asia and the Asia-Pacific, operated by Canopy Pte. Ltd., a company incorporated in Singapore. Prices are quoted in Singapore dollars.',
        'We list projects certified under recognised standards such as Verra’s Verified Carbon Standard and the Gold Standard: forest protection, mangrove and seagrass restoration, renewable energy, clean cookstoves, methane capture and soil carbon. Each project page shows its standard, registry ID, methodology, vintage and location so you can check it yourself.',
        'Members can buy credits by the ton, book pre-sales, and sell credits back to the platform at its published buy-back price. Every change to your balances is recorded in your fund log.',
        'Canopy works on any phone browser and can be installed as an app. You can browse projects, news and your records offline; anything that moves money needs a connection.',
        'Questions? Contact support@canopy.example. Canopy Pte. Ltd., Singapore.',
      ),
      body_cn: paras(
        'Canopy是一个碳信用交易平台，汇集东南亚及亚太地区的碳减排项目，由在新加坡注册成立的Canopy Pte. Ltd.运营。所有价格均以新加坡元计价。',
        '我们上架经Verra核证碳标准（VCS）和黄金标准等公认标准认证的项目，涵盖森林保护、红树林和海草床修复、可再生能源、清洁炉灶、甲烷回收和土壤碳等类型。每个项目页面均展示其标准、登记编号、方法学、年份和地点，方便您自行核查。',
        '会员可以按吨购买碳信用、参与预售，并按平台公布的回购价将碳信用回售给平台。您余额的每一笔变动都会记录在资金明细中。',
        'Canopy可在任何手机浏览器中使用，也可安装为应用。离线时可以浏览项目、资讯和您的记录；涉及资金变动的操作需要联网。',
        '如有疑问，请联系 support@canopy.example。Canopy Pte. Ltd.，新加坡。',
      ),
      updated_at: now,
    },
    {
      slug: 'protocol',
      title: 'User Agreement',
      title_cn: '用户协议',
      body: paras(
        '1. About these terms. This agreement is between you and Canopy Pte. Ltd. (“Canopy”, “we”), a company incorporated in Singapore. By registering or using the Canopy app you agree to these terms. If you register for a company, you confirm that you are authorised to bind it.',
        '2. Your account. You must be at least 18 years old and give accurate information. Keep your login password and withdrawal password secret; orders and withdrawals confirmed with your withdrawal password are treated as made by you. Tell us at once if you suspect misuse. We may lock an account after repeated wrong passwords, or restrict an account that we reasonably believe is at risk of fraud or misuse.',
        '3. Carbon credits. Projects are described using information from their developers, standards and registries. We check listings before publishing them but do not guarantee any project’s future performance. Prices are in Singapore dollars and quantities in whole tonnes of CO2 equivalent. Credits you buy are held in your Canopy carbon credit balance.',
        '4. Orders and pre-sales. A purchase is final once confirmed. Pre-sale bookings require a booking fee; allocations may be pro rata when a pre-sale is oversubscribed; the final amount must be paid by the stated deadline, otherwise the booking fee is forfeited.',
        '5. Buy-back and earning yield. The earning yield shown on a project is the platform’s buy-back offer: the price at which Canopy currently offers to buy credits of that project back from eligible members. It is not a promise of profit, an investment return or a financial product, and we may change or withdraw it for future sales. Sale proceeds settle to your available balance after the stated number of working days.',
        '6. Wallet, top-ups and withdrawals. Top-ups are credited once received and confirmed. Withdrawals are available Monday to Friday, once a day, to an account in your own registered name, subject to the limits and handling fee shown in the app. We may delay or refuse a withdrawal where the law requires it or where we reasonably suspect fraud.',
        '7. Fair use. Do not register accounts in bulk, use automated tools to place orders, or use Canopy for unlawful purposes. We may suspend accounts that break these terms.',
        '8. Liability. Canopy is provided with reasonable care and skill. To the extent permitted by law, we are not liable for indirect losses or for losses caused by events outside our reasonable control. Nothing in these terms limits liability that cannot be limited under Singapore law.',
        '9. Changes and law. We may update these terms and will tell you in the app before changes take effect. These terms are governed by the laws of Singapore, and the courts of Singapore have jurisdiction.',
      ),
      body_cn: paras(
        '1. 关于本协议。本协议由您与在新加坡注册成立的Canopy Pte. Ltd.（“Canopy”或“我们”）订立。注册或使用Canopy应用即表示您同意本协议。如您代表公司注册，即确认您有权代表该公司接受本协议约束。',
        '2. 您的账户。您须年满18周岁并提供真实信息。请妥善保管登录密码和提现密码；使用您的提现密码确认的订单和提现均视为您本人操作。如怀疑账户被盗用，请立即通知我们。多次输错密码后，我们可能锁定账户；如我们合理认为账户存在欺诈或滥用风险，也可能限制该账户。',
        '3. 碳信用。项目信息来源于项目开发方、标准机构和登记处。我们在上架前会对项目进行审核，但不保证任何项目的未来表现。价格以新加坡元计价，数量以整吨二氧化碳当量计。您购买的碳信用存放在您的Canopy碳信用余额中。',
        '4. 订单与预售。购买一经确认即为最终交易。预售预订须支付预订金；预售超额认购时可能按比例配售；尾款须在规定期限内支付，否则预订金不予退还。',
        '5. 回购与收益率。项目上显示的收益率是平台的回购报价，即Canopy当前向符合条件的会员回购该项目碳信用的价格。它不是盈利承诺、投资回报或金融产品，我们可能对今后的回售调整或撤回该报价。回售所得款项将在规定的工作日后结算至您的可用余额。',
        '6. 钱包、充值与提现。充值在到账并确认后入账。提现仅限周一至周五，每天一次，须转入以您本人注册姓名开立的账户，并受应用内显示的限额和手续费约束。如法律要求或我们合理怀疑存在欺诈，我们可能延迟或拒绝提现。',
        '7. 合理使用。禁止批量注册账户、使用自动化工具下单或将Canopy用于非法目的。违反本协议的账户可能被暂停。',
        '8. 责任。我们以合理的谨慎和技能提供Canopy服务。在法律允许的范围内，我们不对间接损失或超出我们合理控制范围的事件所造成的损失承担责任。本协议中的任何内容均不限制依新加坡法律不得限制的责任。',
        '9. 变更与适用法律。我们可能更新本协议，并会在变更生效前通过应用通知您。本协议受新加坡法律管辖，新加坡法院具有管辖权。',
      ),
      updated_at: now,
    },
    {
      slug: 'privacy',
      title: 'Privacy Policy',
      title_cn: '隐私政策',
      body: paras(
        'Canopy Pte. Ltd. respects your privacy and handles personal data in accordance with Singapore’s Personal Data Protection Act 2012 (PDPA). This policy explains what we collect, why, and your choices.',
        'What we collect: your email address, name, identification number, mobile number and avatar; for corporate accounts, the company name and UEN; your bank or PayNow details for withdrawals; your orders, balances and fund records; and technical data such as IP addresses and device information needed to keep the service secure.',
        'Why we use it: to create and secure your account, process orders, top-ups and withdrawals, verify that withdrawals go to an account in your own name, prevent fraud and abuse, send you service notifications and verification codes, and meet our legal and regulatory obligations.',
        'Sharing: we share personal data only with service providers who help us run Canopy (such as hosting, email and payment partners) under contracts that protect it, and with authorities where the law requires. We do not sell your personal data.',
        'Storage and security: passwords are stored only as secure hashes, sessions use random tokens, and access to personal data is restricted. Data kept on your device for offline use stays in your browser and is removed when you log out or clear site data. We keep records as long as needed for the purposes above and for the periods required by law.',
        'Your rights: under the PDPA you may ask to access or correct your personal data, and you may withdraw consent, which may mean we can no longer provide the service. Contact our Data Protection Officer at dpo@canopy.example.',
      ),
      body_cn: paras(
        'Canopy Pte. Ltd.尊重您的隐私，并依据新加坡《2012年个人数据保护法》（PDPA）处理个人数据。本政策说明我们收集哪些数据、用途以及您的选择。',
        '我们收集的数据：您的电子邮箱、姓名、身份证件号码、手机号码和头像；企业账户的公司名称和UEN；用于提现的银行或PayNow信息；您的订单、余额和资金记录；以及为保障服务安全所需的技术数据，如IP地址和设备信息。',
        '我们的用途：创建并保护您的账户，处理订单、充值和提现，核实提现转入以您本人名义开立的账户，防范欺诈和滥用，向您发送服务通知和验证码，以及履行法律和监管义务。',
        '数据共享：我们仅在有合同保护的前提下，与协助我们运营Canopy的服务商（如托管、邮件和支付合作方）共享个人数据，并在法律要求时向有关机构提供。我们不会出售您的个人数据。',
        '存储与安全：密码仅以安全哈希形式存储，会话使用随机令牌，个人数据的访问受到限制。为离线使用而保存在设备上的数据仅存放在您的浏览器中，退出登录或清除网站数据后即被删除。我们仅在实现上述目的所需及法律规定的期限内保留记录。',
        '您的权利：根据PDPA，您可以要求查阅或更正您的个人数据，也可以撤回同意，但这可能导致我们无法继续提供服务。请通过 dpo@canopy.example 联系我们的数据保护官。',
      ),
      updated_at: now,
    },
  ];
}

function banners(): Insertable<BannersTable>[] {
  return [
    { title: 'Explore verified carbon projects', title_cn: '浏览经核证的碳减排项目', image: '/img/banners/1.svg', link: '/pages/project/index', sort: 10 },
    { title: 'Singapore’s carbon tax explained', title_cn: '解读新加坡碳税', image: '/img/banners/2.svg', link: '/pages/news/info?id=1', sort: 20 },
    { title: 'Why mangroves matter', title_cn: '红树林为何重要', image: '/img/banners/3.svg', link: '/pages/news/info?id=4', sort: 30 },
    { title: 'Calculate your carbon footprint', title_cn: '计算您的碳足迹', image: '/img/banners/4.svg', link: '/pages/index/start', sort: 40 },
  ];
}

async function isEmpty(db: Kysely<Database>, table: 'projects' | 'news' | 'faqs' | 'pages' | 'banners'): Promise<boolean> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0) === 0;
}

/**
 * Inserts the demo content (projects, news, FAQs, pages, banners) when the projects table is empty.
 * Other tables are filled only when they are empty too. Runs in a transaction unless given one.
 */
export async function seedContent(db: Kysely<Database>, now: number): Promise<void> {
  const run = async (trx: Kysely<Database>): Promise<void> => {
    if (!(await isEmpty(trx, 'projects'))) return;

    await trx
      .insertInto('projects')
      .values(
        projects(now).map(({ slug, ...p }) => ({
          ...p,
          image: `/img/projects/${slug}.svg`,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();

    if (await isEmpty(trx, 'news')) await trx.insertInto('news').values(news(now)).execute();
    if (await isEmpty(trx, 'faqs')) await trx.insertInto('faqs').values(faqs()).execute();
    await trx
      .insertInto('pages')
      .values(pages(now))
      .onConflict((oc) => oc.column('slug').doNothing())
      .execute();
    if (await isEmpty(trx, 'banners')) await trx.insertInto('banners').values(banners()).execute();
  };

  if (db.isTransaction) await run(db);
  else await db.transaction().execute(run);
}
